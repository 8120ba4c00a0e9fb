/*
** paths/sight.c -- lines of sight between cell centres, the cells a
** segment crosses, and both judged on a view: a player's knowledge, and the
** cells' cost factors weighing a segment (paths/sight.h).
**
** The segment between two cell centres is walked cell by cell with exact
** integer arithmetic (Amanatides & Woo's traversal, ties decided exactly):
** it crosses the vertical grid line number i (i = 0 .. |dx|-1, counted
** from either end) at parameter (2i + 1) / (2 |dx|) and the horizontal
** line j at (2j + 1) / (2 |dy|), so comparing (2i + 1) |dy| with
** (2j + 1) |dx| says which comes first; equality is a grid point, where the
** corner rule judges the two side cells. (Walking whole rows a 64-bit word
** at a time was tried: the divisions it needs per line cost more than the
** cells they skip, since most lines tested -- between waypoints, or from a
** Theta* parent -- are blocked within a few cells.)
*/
#include "paths/sight.h"

#include <math.h>

/* One end of a line-of-sight walk: its cell (padded index) and the keys
** of the next vertical and horizontal grid lines ahead of it. */
typedef struct walker {
  ptrdiff_t p;  /* current cell */
  ptrdiff_t ox; /* index step across a vertical line */
  ptrdiff_t oy; /* index step across a horizontal line */
  int64_t kx;   /* (2i + 1) ny for the next vertical line i */
  int64_t ky;   /* (2j + 1) nx for the next horizontal line j */
} walker;

/* May a segment pass through a grid point between side cells s1 and s2? */
ASTAR__INLINE bool corner_ok(astar_corner corner, bool s1, bool s2) {
  switch (corner) {
  case ASTAR_CORNER_NO_CUT:
    return s1 && s2;
  case ASTAR_CORNER_ONE_SIDE:
    return s1 || s2;
  case ASTAR_CORNER_ALWAYS:
    return true;
  default:
    return false; /* ASTAR_CORNER_NEVER */
  }
}

/* Take w's next step (one line crossed, or a grid point: two) and judge
** the cell it enters, and at a grid point the side cells. Returns the
** crossings consumed (1 or 2), or 0 when the step is not allowed. */
ASTAR__INLINE int step(walker *w, const uint8_t *pass, astar_corner corner, int64_t nx,
                       int64_t ny) {
  int used = 1;
  if (w->kx < w->ky) {
    w->p += w->ox;
    w->kx += 2 * ny;
  } else if (w->ky < w->kx) {
    w->p += w->oy;
    w->ky += 2 * nx;
  } else { /* through a grid point: diagonal step, side cells judged */
    if (!corner_ok(corner, pass[w->p + w->ox] != 0, pass[w->p + w->oy] != 0)) return 0;
    w->p += w->ox + w->oy;
    w->kx += 2 * ny;
    w->ky += 2 * nx;
    used = 2;
  }
  return pass[w->p] ? used : 0;
}

/* Walked from both ends at once, a step each in turn, until the walks
** meet: blocked lines are usually blocked near one end or the other (a
** waypoint or a Theta* parent sits by an obstacle) and are refused after a
** few steps. */
bool astar__sight(const astar_grid *g, astar_corner corner, astar_point a, astar_point b) {
  const uint8_t *pass = g->pass;
  const int32_t dx = b.x - a.x, dy = b.y - a.y;
  const int64_t nx = dx < 0 ? -(int64_t)dx : dx, ny = dy < 0 ? -(int64_t)dy : dy;
  const ptrdiff_t ox = dx < 0 ? -1 : 1, oy = dy < 0 ? -(ptrdiff_t)g->stride : g->stride;
  /* Line i from either end is crossed at t = (2i + 1) / (2 nx) of the way,
  ** line j at (2j + 1) / (2 ny): the smaller of (2i + 1) ny and (2j + 1) nx
  ** comes first, equality is a grid point. Once all vertical lines are
  ** crossed kx exceeds every remaining ky (and the other way round). */
  walker wa = {(ptrdiff_t)astar__index(g, a.x, a.y), ox, oy, ny, nx};
  walker wb = {(ptrdiff_t)astar__index(g, b.x, b.y), -ox, -oy, ny, nx};
  if (!pass[wa.p] || !pass[wb.p]) return false;
  int64_t left = nx + ny; /* crossings between the two walks */
  while (left > 0) {
    int used = step(&wa, pass, corner, nx, ny);
    if (!used) return false;
    left -= used;
    if (left <= 0) break;
    used = step(&wb, pass, corner, nx, ny);
    if (!used) return false;
    left -= used;
  }
  return true;
}

bool astar__sees(const astar_grid *g, astar_corner corner, astar_point a, astar_point b) {
  const bool b_first = b.y < a.y || (b.y == a.y && b.x < a.x);
  return b_first ? astar__sight(g, corner, b, a) : astar__sight(g, corner, a, b);
}

void astar__segment_cells(astar_point a, astar_point b, astar_point *cells, size_t cap,
                          size_t *len) {
  const int64_t nx = b.x > a.x ? (int64_t)b.x - a.x : (int64_t)a.x - b.x;
  const int64_t ny = b.y > a.y ? (int64_t)b.y - a.y : (int64_t)a.y - b.y;
  const int32_t sx = b.x < a.x ? -1 : 1, sy = b.y < a.y ? -1 : 1;
  int64_t kx = ny, ky = nx, left = nx + ny;
  astar_point c = a;
  while (left > 0) {
    if (kx < ky) {
      c.x += sx;
      kx += 2 * ny;
      left--;
    } else if (ky < kx) {
      c.y += sy;
      ky += 2 * nx;
      left--;
    } else {
      c.x += sx;
      c.y += sy;
      kx += 2 * ny;
      ky += 2 * nx;
      left -= 2;
    }
    if (cells && *len < cap) cells[*len] = c;
    (*len)++;
  }
}

double astar__centre_distance(astar_point a, astar_point b) {
  const double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y;
  return sqrt(dx * dx + dy * dy);
}

/* ---- the view: sight and weighted length under search options ---------------- */

astar_status astar__view_init(astar__view *v, const astar_grid *g, const astar_options *o,
                              astar_point start) {
  for (size_t i = 0; i < o->nlayers; i++)
    if (!astar__layer_fits(o->layers[i], g)) return ASTAR_INVALID_ARGUMENT;
  if (o->knowledge && !astar__knowledge_fits(o->knowledge, g)) return ASTAR_INVALID_ARGUMENT;
  v->g = g;
  v->k = o->knowledge;
  v->start = (ptrdiff_t)astar__index(g, start.x, start.y);
  v->unknown = o->unknown;
  v->unknown_cost = o->unknown_cost;
  v->alpha = o->terrain_scale;
  v->layers = o->layers;
  v->weights = o->layer_weights;
  v->nlayers = o->nlayers;
  v->corner = astar__sight_corner(o);
  v->uniform = (!g->terrain || o->terrain_scale == 0.0) && o->nlayers == 0 &&
               !(o->knowledge && o->unknown == ASTAR_UNKNOWN_COST && o->unknown_cost != 1.0);
  return ASTAR_OK;
}

/* Is padded cell p open on the view? (The border is blocked in both the
** grid and the knowledge.) */
ASTAR__INLINE bool view_open(const astar__view *v, ptrdiff_t p) {
  if (!v->k) return v->g->pass[p] != 0;
  const uint8_t s = v->k->state[p];
  return s == ASTAR_CELL_PASSABLE ||
         (s == ASTAR_CELL_UNKNOWN && v->unknown != ASTAR_UNKNOWN_BLOCKED);
}

/* The same factor as astar__entry_factor (search/general.h) computes for a
** search with these options, so that a path's weighted length and the grid
** search's costs price a cell alike. */
static double view_factor(const astar__view *v, ptrdiff_t p) {
  const float *ter = v->g->terrain;
  double f = ter ? 1.0 + v->alpha * ((double)ter[p] - 1.0) : 1.0;
  for (size_t i = 0; i < v->nlayers; i++) f += (double)v->weights[i] * (double)v->layers[i]->v[p];
  if (v->k && v->unknown == ASTAR_UNKNOWN_COST && v->k->state[p] == ASTAR_CELL_UNKNOWN)
    f *= v->unknown_cost;
  return f;
}

/* astar__sight's walk on the player's cells, from a's end only (sight is
** rarely tested on a view, and never in a search loop). */
static bool view_sight(const astar__view *v, astar_point a, astar_point b) {
  const int32_t dx = b.x - a.x, dy = b.y - a.y;
  const int64_t nx = dx < 0 ? -(int64_t)dx : dx, ny = dy < 0 ? -(int64_t)dy : dy;
  const ptrdiff_t ox = dx < 0 ? -1 : 1, oy = dy < 0 ? -(ptrdiff_t)v->g->stride : v->g->stride;
  ptrdiff_t p = (ptrdiff_t)astar__index(v->g, a.x, a.y);
  const ptrdiff_t end = (ptrdiff_t)astar__index(v->g, b.x, b.y);
  if ((p != v->start && !view_open(v, p)) || (end != v->start && !view_open(v, end))) return false;
  int64_t kx = ny, ky = nx, left = nx + ny;
  while (left > 0) {
    if (kx < ky) {
      p += ox;
      kx += 2 * ny;
      left--;
    } else if (ky < kx) {
      p += oy;
      ky += 2 * nx;
      left--;
    } else {
      if (!corner_ok(v->corner, view_open(v, p + ox), view_open(v, p + oy))) return false;
      p += ox + oy;
      kx += 2 * ny;
      ky += 2 * nx;
      left -= 2;
    }
    if (left > 0 && !view_open(v, p)) return false; /* b itself was judged above */
  }
  return true;
}

bool astar__view_sees(const astar__view *v, astar_point a, astar_point b) {
  if (!v->k) return astar__sees(v->g, v->corner, a, b);
  const bool b_first = b.y < a.y || (b.y == a.y && b.x < a.x);
  return b_first ? view_sight(v, b, a) : view_sight(v, a, b);
}

/*
** The segment is cut where it crosses grid lines: vertical line i (counted
** from a) at parameter (2i + 1) ny / D and horizontal line j at
** (2j + 1) nx / D, D = 2 nx ny -- the keys of astar__sight, so the cells
** and the grid points are exactly those of the sight walk. Each cell's
** share is its key interval (an integer); the shares times the factors are
** summed and divided by D once, so a uniform run sums to exactly D and the
** weighted length of a uniform view is the Euclidean length bit for bit.
** A straight segment (nx or ny 0) crosses whole cells, halves at the ends.
*/
double astar__view_length(const astar__view *v, astar_point a, astar_point b) {
  const int32_t dx = b.x - a.x, dy = b.y - a.y;
  const int64_t nx = dx < 0 ? -(int64_t)dx : dx, ny = dy < 0 ? -(int64_t)dy : dy;
  if (v->uniform || (nx == 0 && ny == 0)) return astar__centre_distance(a, b);
  const ptrdiff_t ox = dx < 0 ? -1 : 1, oy = dy < 0 ? -(ptrdiff_t)v->g->stride : v->g->stride;
  ptrdiff_t p = (ptrdiff_t)astar__index(v->g, a.x, a.y);
  if (nx == 0 || ny == 0) {
    const int64_t n = nx + ny;
    const ptrdiff_t o = nx ? ox : oy;
    double sum = 0.5 * view_factor(v, p);
    for (int64_t i = 1; i < n; i++) sum += view_factor(v, p += o);
    sum += 0.5 * view_factor(v, p + o);
    return sum;
  }
  const int64_t d = 2 * nx * ny;
  int64_t kx = ny, ky = nx, at = 0, left = nx + ny;
  double sum = 0.0;
  while (left > 0) {
    const int64_t k = kx < ky ? kx : ky;
    sum += view_factor(v, p) * (double)(k - at);
    at = k;
    if (kx < ky) {
      p += ox;
      kx += 2 * ny;
      left--;
    } else if (ky < kx) {
      p += oy;
      ky += 2 * nx;
      left--;
    } else {
      p += ox + oy;
      kx += 2 * ny;
      ky += 2 * nx;
      left -= 2;
    }
  }
  sum += view_factor(v, p) * (double)(d - at);
  return astar__centre_distance(a, b) * (sum / (double)d);
}
