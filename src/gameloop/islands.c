/*
** islands.c -- connected components of the passable cells under one
** movement rule, so that reachability is an O(1) test (astar/islands.h).
**
** Labelling is the classic two-pass scheme (Rosenfeld; Wu, Otoo & Suzuki)
** with the union-find forest stored in the id array itself, so it needs no
** stack, no queue and no scratch memory: relabelling after an edit never
** allocates, and memory stays at 4 bytes a padded cell plus one size per
** possible island.
**   Pass 1, row-major: every passable cell starts as its own root and is
**   joined with its already visited neighbours (W, NW, N, NE) that the rule
**   lets it move to. Roots are always linked towards the smaller index, so
**   a parent never follows its child in row-major order.
**   Pass 2, row-major: a cell that is its own root is the first cell of a new
**   island and gets the next number; any other cell takes the number of its
**   parent, which precedes it and so already holds a final number.
** Components are the same whether found through the rule's move table or
** by a flood, because every rule's move relation is symmetric.
*/
#include "search/query.h"

struct astar_islands {
  astar_allocator alloc;
  int32_t width, height, stride;
  uint32_t ncells;      /* padded cells: entries of id */
  int moves;            /* as given (4 or 8) */
  astar_corner corner;  /* as given */
  uint64_t version;     /* astar_grid_version() at the last (re)build */
  uint32_t count;       /* islands */
  uint32_t max_islands; /* entries of size, less one */
  uint32_t *id;         /* [ncells] island of each padded cell, 0 blocked */
  uint32_t *size;       /* [max_islands + 1] cells of each island (size[0] unused) */
  uint8_t allowed[256]; /* legal-move mask by neighbour byte, for the rule */
};

/*
** The most islands a width x height grid can hold. Picking one cell from
** each island gives cells no two of which are joined by a move, so the
** bound is the largest such set. With diagonals always allowed (8-
** connectivity) that is one cell per 2x2 block; under every other rule the
** components are those of the straight moves alone (a diagonal allowed
** under NO_CUT or ONE_SIDE has a passable side cell, so its two ends are
** also joined through that cell), and a checkerboard is the worst case.
*/
static uint32_t max_islands(int32_t w, int32_t h, int rule) {
  const uint64_t uw = (uint64_t)w, uh = (uint64_t)h;
  if (rule == ASTAR__RULE_ALWAYS) return (uint32_t)(((uw + 1) / 2) * ((uh + 1) / 2));
  return (uint32_t)((uw * uh + 1) / 2);
}

/* Root of x in the forest held by p, halving the path on the way. */
ASTAR__INLINE uint32_t find_root(uint32_t *p, uint32_t x) {
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}

static void label(astar_islands *isl, const astar_grid *g) {
  uint32_t *const p = isl->id;
  const uint8_t *const pass = g->pass, *const nb = g->nb;
  const int32_t s = g->stride;
  /* Only the neighbours that precede a cell in row-major order. */
  static const int before[4] = {ASTAR__W, ASTAR__NW, ASTAR__N, ASTAR__NE};
  int32_t off[4];
  unsigned before_mask = 0;
  for (int k = 0; k < 4; k++) {
    off[k] = astar__dir_dy[before[k]] * s + astar__dir_dx[before[k]];
    before_mask |= 1u << before[k];
  }

  for (int32_t y = 0; y < g->height; y++) {
    const uint32_t row = astar__index(g, 0, y);
    for (uint32_t u = row; u < row + (uint32_t)g->width; u++) {
      if (!pass[u]) {
        p[u] = 0;
        continue;
      }
      p[u] = u;
      const unsigned m = isl->allowed[nb[u]] & before_mask;
      if (!m) continue;
      for (int k = 0; k < 4; k++) {
        if (!(m >> before[k] & 1u)) continue;
        const uint32_t a = find_root(p, u), b = find_root(p, (uint32_t)((int32_t)u + off[k]));
        if (a < b)
          p[b] = a;
        else if (b < a)
          p[a] = b;
      }
    }
  }

  uint32_t count = 0;
  uint32_t *const size = isl->size;
  for (int32_t y = 0; y < g->height; y++) {
    const uint32_t row = astar__index(g, 0, y);
    for (uint32_t u = row; u < row + (uint32_t)g->width; u++) {
      const uint32_t parent = p[u];
      if (!parent) continue;
      uint32_t l;
      if (parent == u) {
        l = ++count;
        size[l] = 0;
      } else {
        l = p[parent]; /* parent < u: already renumbered */
      }
      p[u] = l;
      size[l]++;
    }
  }
  isl->count = count;
  isl->version = g->version;
}

astar_status astar_islands_new(astar_islands **out, const astar_grid *grid,
                               const astar_options *opt, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  /* Only the movement rule matters here; the other fields are not checked. */
  if ((opt->moves != 4 && opt->moves != 8) || (unsigned)opt->corner > (unsigned)ASTAR_CORNER_NEVER)
    return ASTAR_INVALID_ARGUMENT;

  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_islands *isl = astar__malloc(&a, sizeof *isl);
  if (!isl) return ASTAR_NO_MEMORY;
  memset(isl, 0, sizeof *isl);
  isl->alloc = a;
  isl->width = grid->width;
  isl->height = grid->height;
  isl->stride = grid->stride;
  isl->ncells = grid->ncells;
  isl->moves = opt->moves;
  isl->corner = opt->corner;
  const int rule = astar__rule_of(opt);
  for (unsigned nb = 0; nb < 256; nb++) {
    uint8_t m = 0;
    for (int d = 0; d < 8; d++)
      if (astar__move_allowed(rule, nb, d)) m |= (uint8_t)(1u << d);
    isl->allowed[nb] = m;
  }
  isl->max_islands = max_islands(grid->width, grid->height, rule);
  /* calloc: the border entries must read as 0 (blocked), and labelling
  ** writes only the interior. */
  isl->id = astar__calloc(&a, grid->ncells, sizeof(uint32_t));
  isl->size = astar__calloc(&a, (size_t)isl->max_islands + 1, sizeof(uint32_t));
  if (!isl->id || !isl->size) {
    astar_islands_free(isl);
    return ASTAR_NO_MEMORY;
  }
  label(isl, grid);
  *out = isl;
  return ASTAR_OK;
}

void astar_islands_free(astar_islands *isl) {
  if (!isl) return;
  const astar_allocator a = isl->alloc;
  astar__free(&a, isl->id, (size_t)isl->ncells * sizeof(uint32_t));
  astar__free(&a, isl->size, ((size_t)isl->max_islands + 1) * sizeof(uint32_t));
  astar__free(&a, isl, sizeof *isl);
}

astar_status astar_islands_update(astar_islands *isl, const astar_grid *grid) {
  if (!isl || !grid || grid->width != isl->width || grid->height != isl->height)
    return ASTAR_INVALID_ARGUMENT;
  label(isl, grid);
  return ASTAR_OK;
}

bool astar_islands_current(const astar_islands *isl, const astar_grid *grid) {
  return isl && grid && grid->width == isl->width && grid->height == isl->height &&
         grid->version == isl->version;
}

uint32_t astar_islands_id(const astar_islands *isl, int32_t x, int32_t y) {
  if (!isl || x < 0 || y < 0 || x >= isl->width || y >= isl->height) return 0;
  return isl->id[(uint32_t)(y + 1) * (uint32_t)isl->stride + (uint32_t)(x + 1)];
}

uint32_t astar_islands_count(const astar_islands *isl) {
  return isl ? isl->count : 0;
}

size_t astar_islands_size(const astar_islands *isl, uint32_t id) {
  if (!isl || id == 0 || id > isl->count) return 0;
  return isl->size[id];
}

bool astar_islands_reachable(const astar_islands *isl, astar_point a, astar_point b) {
  const uint32_t ia = astar_islands_id(isl, a.x, a.y);
  return ia != 0 && ia == astar_islands_id(isl, b.x, b.y);
}

/* Octile distance with unit straight and sqrt(2) diagonal steps. Distinct
** (dx, dy) pairs within the grid limits differ by far more than a rounding
** error, so comparing these doubles orders the cells exactly. */
static double octile(int64_t dx, int64_t dy) {
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  const int64_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (double)hi + (ASTAR__SQRT2 - 1.0) * (double)lo;
}

/*
** Rows are visited outwards from the target's row and, within a row, columns
** outwards from the target's column: the distance grows with the column
** offset, so the first hit in a row is that row's best, and no row further
** than the best distance found can win. Cost: the cells inside the octile
** disc around the target up to the answer's distance (all of the grid in the
** worst case); no allocation.
*/
astar_status astar_islands_nearest(const astar_islands *isl, uint32_t id, astar_point target,
                                   astar_point *out) {
  if (!isl || !out || id == 0 || id > isl->count) return ASTAR_INVALID_ARGUMENT;
  const int64_t tx = target.x, ty = target.y, w = isl->width, h = isl->height;
  /* Offsets from the target to the nearest and farthest grid row / column
  ** (the target may lie outside the grid). */
  const int64_t dy_min = ty < 0 ? -ty : (ty >= h ? ty - (h - 1) : 0);
  const int64_t dy_max = (ty > h - 1 - ty) ? ty : h - 1 - ty;
  const int64_t dx_min = tx < 0 ? -tx : (tx >= w ? tx - (w - 1) : 0);
  const int64_t dx_max = (tx > w - 1 - tx) ? tx : w - 1 - tx;
  bool found = false;
  double best = 0.0;
  int64_t bx = 0, by = 0;
  for (int64_t dy = dy_min; dy <= dy_max; dy++) {
    if (found && (double)dy > best) break;
    for (int side = 0; side < 2; side++) {
      if (side == 1 && dy == 0) break;
      const int64_t y = side == 0 ? ty - dy : ty + dy;
      if (y < 0 || y >= h) continue;
      const uint32_t *row = isl->id + (size_t)(y + 1) * (size_t)isl->stride + 1;
      for (int64_t dx = dx_min; dx <= dx_max; dx++) {
        const double d = octile(dx, dy);
        if (found && d > best) break;
        /* Left before right: the smaller column comes first in row-major order. */
        int64_t hit = -1;
        if (tx - dx >= 0 && tx - dx < w && row[tx - dx] == id)
          hit = tx - dx;
        else if (dx && tx + dx >= 0 && tx + dx < w && row[tx + dx] == id)
          hit = tx + dx;
        if (hit < 0) continue;
        if (!found || d < best || (d == best && (y < by || (y == by && hit < bx)))) {
          found = true;
          best = d;
          bx = hit;
          by = y;
        }
        break;
      }
    }
  }
  if (!found) return ASTAR_INVALID_ARGUMENT; /* unreachable: id <= count has cells */
  out->x = (int32_t)bx;
  out->y = (int32_t)by;
  return ASTAR_OK;
}

int astar_islands_moves(const astar_islands *isl) {
  return isl ? isl->moves : 0;
}

astar_corner astar_islands_corner(const astar_islands *isl) {
  return isl ? isl->corner : ASTAR_CORNER_NO_CUT;
}
