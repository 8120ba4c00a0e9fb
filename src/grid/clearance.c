/*
** clearance.c -- true clearance per capability, the derived "unit fits"
** grids built from it, and the path check for big units (astar/clearance.h).
**
** Values are kept per padded cell, like the grid's own arrays, so the
** dynamic-programming recurrence
**     clr(p) = traversable(p) ? min(max_size, 1 + min(clr(E), clr(S), clr(SE))) : 0
** needs no bounds checks: the border reads as 0 (the grid's border is
** blocked). Evaluated from the bottom-right corner towards the top-left, each
** cell's three inputs are final when it is computed. After an edit only the
** values that change are recomputed (propagate).
*/
#include "core/internal.h"
#include "grid/clearance.h"

#include <string.h>

struct astar_clearance {
  astar_allocator alloc;         /* where types, clr and the object came from */
  int32_t width, height, stride; /* the grid's dimensions and padded row length */
  uint32_t ncells;               /* padded cells: entries of types and of each clr */
  int32_t max_size;              /* cap of every value, 1 .. ASTAR_CLEARANCE_MAX */
  size_t ncaps;                  /* capabilities built, 1 .. ASTAR_CLEARANCE_MAX_CAPS */
  astar_capability caps[ASTAR_CLEARANCE_MAX_CAPS]; /* their masks, distinct */
  uint64_t version;                                /* astar_grid_version() when last current */
  uint8_t *types;                                  /* [ncells] terrain type of each padded cell */
  uint8_t *clr;        /* [ncaps * ncells] clearance, capability-major */
  uint64_t type_edits; /* types changed by astar_clearance_set_type (grid/clearance.h) */
};

uint64_t astar__clearance_type_edits(const astar_clearance *c) {
  return c->type_edits;
}

/* Forward: defined with the other lookups below. */
static bool same_size(const astar_clearance *c, const astar_grid *g);

astar_status astar__clearance_check(const astar_clearance *c, const astar_grid *grid) {
  if (!same_size(c, grid)) return ASTAR_MISMATCH;
  return grid->version == c->version ? ASTAR_OK : ASTAR_STALE;
}

/* Index of `capability` among c's, or -1. */
static int cap_index(const astar_clearance *c, astar_capability capability) {
  for (size_t i = 0; i < c->ncaps; i++)
    if (c->caps[i] == capability) return (int)i;
  return -1;
}

static bool same_size(const astar_clearance *c, const astar_grid *g) {
  return g->width == c->width && g->height == c->height;
}

/* One cell's value from its right, lower and lower-right neighbours. */
ASTAR__INLINE uint8_t cell_value(const astar_clearance *c, const astar_grid *g, const uint8_t *v,
                                 astar_capability m, uint32_t u) {
  if (!g->pass[u] || !(m >> c->types[u] & 1u)) return 0;
  const uint32_t s = (uint32_t)c->stride;
  unsigned lo = v[u + 1];
  if (v[u + s] < lo) lo = v[u + s];
  if (v[u + s + 1] < lo) lo = v[u + s + 1];
  return (uint8_t)(lo + 1 < (unsigned)c->max_size ? lo + 1 : (unsigned)c->max_size);
}

/* Every value, for every capability, bottom-right first; records the
** grid's version. */
static void compute_all(astar_clearance *c, const astar_grid *g) {
  for (size_t k = 0; k < c->ncaps; k++) {
    uint8_t *const v = c->clr + k * c->ncells;
    for (int32_t y = g->height - 1; y >= 0; y--) {
      const uint32_t row = astar__index(g, 0, y);
      for (int32_t x = g->width - 1; x >= 0; x--)
        v[row + (uint32_t)x] = cell_value(c, g, v, c->caps[k], row + (uint32_t)x);
    }
  }
  c->version = g->version;
}

astar_status astar_terrain_open(astar_grid *grid, const uint8_t *types,
                                astar_capability capability) {
  if (!grid || !types) return ASTAR_INVALID_ARGUMENT;
  for (int32_t y = 0; y < grid->height; y++)
    for (int32_t x = 0; x < grid->width; x++) {
      const uint8_t t = types[(size_t)y * (size_t)grid->width + (size_t)x];
      if (t < ASTAR_TERRAIN_TYPES && (capability >> t & 1u))
        astar_grid_set_passable(grid, x, y, true);
    }
  return ASTAR_OK;
}

astar_status astar_clearance_new(astar_clearance **out, const astar_grid *grid,
                                 const uint8_t *types, const astar_capability *caps, size_t ncaps,
                                 int32_t max_size, const astar_allocator *alloc) {
  static const astar_capability all = ASTAR_CAPABILITY_ALL;
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || max_size < 1 || max_size > ASTAR_CLEARANCE_MAX) return ASTAR_INVALID_ARGUMENT;
  if (!caps && ncaps == 0) {
    caps = &all;
    ncaps = 1;
  }
  if (!caps || ncaps < 1 || ncaps > ASTAR_CLEARANCE_MAX_CAPS) return ASTAR_INVALID_ARGUMENT;
  for (size_t i = 0; i < ncaps; i++)
    for (size_t j = 0; j < i; j++)
      if (caps[i] == caps[j]) return ASTAR_INVALID_ARGUMENT;
  const size_t cells = (size_t)grid->width * (size_t)grid->height;
  if (types)
    for (size_t i = 0; i < cells; i++)
      if (types[i] >= ASTAR_TERRAIN_TYPES) return ASTAR_INVALID_ARGUMENT;

  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_clearance *c = astar__malloc(&a, sizeof *c);
  if (!c) return ASTAR_NO_MEMORY;
  memset(c, 0, sizeof *c);
  c->alloc = a;
  c->width = grid->width;
  c->height = grid->height;
  c->stride = grid->stride;
  c->ncells = grid->ncells;
  c->max_size = max_size;
  c->ncaps = ncaps;
  memcpy(c->caps, caps, ncaps * sizeof *caps);
  /* calloc: border types read as ASTAR_TYPE_GROUND and border values as 0. */
  c->types = astar__calloc(&a, c->ncells, 1);
  c->clr = astar__calloc(&a, c->ncells, ncaps);
  if (!c->types || !c->clr) {
    astar_clearance_free(c);
    return ASTAR_NO_MEMORY;
  }
  if (types)
    for (int32_t y = 0; y < grid->height; y++)
      memcpy(c->types + astar__index(grid, 0, y), types + (size_t)y * (size_t)grid->width,
             (size_t)grid->width);
  compute_all(c, grid);
  *out = c;
  return ASTAR_OK;
}

void astar_clearance_free(astar_clearance *c) {
  if (!c) return;
  const astar_allocator a = c->alloc;
  astar__free(&a, c->types, c->ncells);
  astar__free(&a, c->clr, (size_t)c->ncells * c->ncaps);
  astar__free(&a, c, sizeof *c);
}

bool astar_clearance_current(const astar_clearance *c, const astar_grid *grid) {
  return c && grid && same_size(c, grid) && grid->version == c->version;
}

astar_status astar_clearance_update(astar_clearance *c, const astar_grid *grid) {
  if (!c || !grid) return ASTAR_INVALID_ARGUMENT;
  if (!same_size(c, grid)) return ASTAR_MISMATCH;
  compute_all(c, grid);
  return ASTAR_OK;
}

/*
** (x, y) changed (its passability or type): recompute it and every value
** that changes because of it, and nothing else. A value depends on its E, S
** and SE neighbours only, so a change travels up and left: in each row,
** going up, the cells to recompute are those above or up-left of the cells
** that changed in the row below (columns lo .. hi), and further left as
** long as the cell just recomputed changed. The walk stops at the first row
** where nothing changed, so an edit costs about the number of values it
** changes (at most max_size^2) instead of a rebuild.
*/
static void propagate(astar_clearance *c, const astar_grid *g, int32_t x, int32_t y) {
  for (size_t k = 0; k < c->ncaps; k++) {
    uint8_t *const v = c->clr + k * c->ncells;
    const astar_capability m = c->caps[k];
    int32_t lo = x, hi = x;
    for (int32_t row = y; row >= 0; row--) {
      const uint32_t base = astar__index(g, 0, row);
      int32_t new_lo = INT32_MAX, new_hi = -1;
      bool changed = false;
      for (int32_t col = hi; col >= 0 && (col >= lo || changed); col--) {
        const uint32_t u = base + (uint32_t)col;
        const uint8_t val = cell_value(c, g, v, m, u);
        changed = val != v[u];
        if (!changed) continue;
        v[u] = val;
        if (col < new_lo) new_lo = col;
        if (col > new_hi) new_hi = col;
      }
      if (new_hi < 0) break;
      lo = new_lo > 0 ? new_lo - 1 : 0;
      hi = new_hi;
    }
  }
}

astar_status astar_clearance_update_cells(astar_clearance *c, const astar_grid *grid,
                                          const astar_point *cells, size_t n) {
  if (!c || !grid || (!cells && n > 0)) return ASTAR_INVALID_ARGUMENT;
  if (!same_size(c, grid)) return ASTAR_MISMATCH;
  for (size_t i = 0; i < n; i++)
    if (!astar_grid_contains(grid, cells[i].x, cells[i].y)) return ASTAR_OUT_OF_BOUNDS;
  /* Past a sixteenth of the cells, one rebuild is cheaper for certain. */
  if (n > (size_t)grid->width * (size_t)grid->height / 16)
    compute_all(c, grid);
  else
    for (size_t i = 0; i < n; i++) propagate(c, grid, cells[i].x, cells[i].y);
  c->version = grid->version;
  return ASTAR_OK;
}

astar_status astar_clearance_set_type(astar_clearance *c, const astar_grid *grid, int32_t x,
                                      int32_t y, uint8_t type) {
  if (!c || !grid || type >= ASTAR_TERRAIN_TYPES) return ASTAR_INVALID_ARGUMENT;
  if (!same_size(c, grid)) return ASTAR_MISMATCH;
  if (grid->version != c->version) return ASTAR_STALE;
  if (!astar_grid_contains(grid, x, y)) return ASTAR_OUT_OF_BOUNDS;
  uint8_t *t = &c->types[astar__index(grid, x, y)];
  if (*t == type) return ASTAR_OK;
  *t = type;
  c->type_edits++;
  propagate(c, grid, x, y);
  return ASTAR_OK;
}

uint8_t astar_clearance_type(const astar_clearance *c, int32_t x, int32_t y) {
  if (!c || x < 0 || y < 0 || x >= c->width || y >= c->height) return 0;
  return c->types[(uint32_t)(y + 1) * (uint32_t)c->stride + (uint32_t)(x + 1)];
}

int32_t astar_clearance_at(const astar_clearance *c, int32_t x, int32_t y,
                           astar_capability capability) {
  if (!c) return -1;
  const int k = cap_index(c, capability);
  if (k < 0) return -1;
  if (x < 0 || y < 0 || x >= c->width || y >= c->height) return 0;
  const size_t u = (size_t)(y + 1) * (size_t)c->stride + (size_t)(x + 1);
  return c->clr[(size_t)k * c->ncells + u];
}

bool astar_clearance_fits(const astar_clearance *c, int32_t x, int32_t y, int32_t size,
                          astar_capability capability) {
  return c && size >= 1 && size <= c->max_size && astar_clearance_at(c, x, y, capability) >= size;
}

int32_t astar_clearance_max_size(const astar_clearance *c) {
  return c ? c->max_size : 0;
}

size_t astar_clearance_memory(const astar_clearance *c) {
  return c ? sizeof *c + (size_t)c->ncells * (1 + c->ncaps) : 0;
}

/* ---- derived grids ------------------------------------------------------- */

/* Common checks of fill_grid and path_cost; *values receives the values of
** the capability. */
static astar_status check_unit(const astar_clearance *c, const astar_grid *grid, int32_t size,
                               astar_capability capability, const uint8_t **values) {
  if (!c || !grid || size < 1 || size > c->max_size) return ASTAR_INVALID_ARGUMENT;
  const int k = cap_index(c, capability);
  if (k < 0) return ASTAR_INVALID_ARGUMENT;
  if (!same_size(c, grid)) return ASTAR_MISMATCH;
  if (grid->version != c->version) return ASTAR_STALE;
  *values = c->clr + (size_t)k * c->ncells;
  return ASTAR_OK;
}

/*
** out's terrain := for every cell, the largest factor of grid's cells in the
** size x size square below-right of it, clipped to the grid. Two separable
** passes in place: rows (reads grid), then columns top-down (row y reads
** rows y .. y+size-1 of the row pass, none of them overwritten yet).
** Then out's running minimum, as astar_grid_set_terrain keeps it.
*/
static void fill_terrain(const astar_grid *grid, int32_t size, astar_grid *out) {
  const int32_t w = grid->width, h = grid->height;
  for (int32_t y = 0; y < h; y++) {
    const float *src = grid->terrain + astar__index(grid, 0, y);
    float *dst = out->terrain + astar__index(out, 0, y);
    for (int32_t x = 0; x < w; x++) {
      const int32_t end = x + size < w ? x + size : w;
      float m = src[x];
      for (int32_t i = x + 1; i < end; i++)
        if (src[i] > m) m = src[i];
      dst[x] = m;
    }
  }
  const int32_t s = out->stride;
  for (int32_t y = 0; y < h; y++) {
    float *dst = out->terrain + astar__index(out, 0, y);
    const int32_t end = y + size < h ? y + size : h;
    for (int32_t x = 0; x < w; x++) {
      float m = dst[x];
      for (int32_t j = 1; j < end - y; j++)
        if (dst[x + (ptrdiff_t)j * s] > m) m = dst[x + (ptrdiff_t)j * s];
      dst[x] = m;
    }
  }
  float mn = out->terrain[astar__index(out, 0, 0)];
  uint32_t count = 0;
  for (int32_t y = 0; y < h; y++) {
    const float *row = out->terrain + astar__index(out, 0, y);
    for (int32_t x = 0; x < w; x++) {
      if (row[x] < mn) {
        mn = row[x];
        count = 1;
      } else if (row[x] == mn) {
        count++;
      }
    }
  }
  out->min_terrain = mn;
  out->min_count = count;
}

astar_status astar_clearance_fill_grid(const astar_clearance *c, const astar_grid *grid,
                                       int32_t size, astar_capability capability, astar_grid *out) {
  const uint8_t *v;
  if (!out || out == grid) return ASTAR_INVALID_ARGUMENT;
  astar_status st = check_unit(c, grid, size, capability, &v);
  if (st != ASTAR_OK) return st;
  if (!same_size(c, out)) return ASTAR_MISMATCH;
  astar_grid_fill(out, false);
  if (grid->terrain) {
    if (!out->terrain) {
      float *t = astar__malloc(&out->alloc, (size_t)out->ncells * sizeof(float));
      if (!t) return ASTAR_NO_MEMORY;
      for (uint32_t i = 0; i < out->ncells; i++) t[i] = 1.0f;
      out->terrain = t;
    }
    fill_terrain(grid, size, out);
  } else {
    astar_grid_clear_terrain(out);
  }
  for (int32_t y = 0; y < grid->height; y++) {
    const uint8_t *row = v + astar__index(grid, 0, y);
    for (int32_t x = 0; x < grid->width; x++)
      if (row[x] >= size) astar_grid_set_passable(out, x, y, true);
  }
  astar__grid_touch_all(out); /* the terrain may have changed with no cell changing */
  return ASTAR_OK;
}

astar_status astar_clearance_find_path(astar_workspace *ws, const astar_clearance *c,
                                       const astar_grid *grid, astar_grid *scratch,
                                       const astar_options *opt, int32_t size,
                                       astar_capability capability, astar_point start,
                                       astar_point goal, astar_point *path, size_t cap,
                                       astar_result *result) {
  const astar_status st = astar_clearance_fill_grid(c, grid, size, capability, scratch);
  if (st != ASTAR_OK) {
    astar__result_clear(result, st);
    return st;
  }
  return astar_find_path(ws, scratch, opt, start, goal, path, cap, result);
}

/* ---- path check ------------------------------------------------------------ */

/* Largest terrain factor of the size x size square at (x, y) (all inside). */
static double footprint_terrain(const astar_grid *g, int32_t x, int32_t y, int32_t size) {
  if (!g->terrain) return 1.0;
  float m = 0.0f;
  for (int32_t j = 0; j < size; j++)
    for (int32_t i = 0; i < size; i++) {
      const float t = g->terrain[astar__index(g, x + i, y + j)];
      if (t > m) m = t;
    }
  return (double)m;
}

astar_status astar_clearance_path_cost(const astar_clearance *c, const astar_grid *grid,
                                       const astar_options *opt, int32_t size,
                                       astar_capability capability, const astar_point *path,
                                       size_t n, double *cost, size_t *bad_index) {
  const uint8_t *v;
  astar_options defaults;
  if (bad_index) *bad_index = 0;
  if (!path || n == 0) return ASTAR_INVALID_ARGUMENT;
  astar_status st = check_unit(c, grid, size, capability, &v);
  if (st != ASTAR_OK) return st;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  const bool diagonals = opt->moves == 8 && opt->corner != ASTAR_CORNER_NEVER;
#define FITS(px, py)                                                                               \
  (astar_grid_contains(grid, (px), (py)) && v[astar__index(grid, (px), (py))] >= size)
  double total = 0.0;
  int last_d = -1;
  for (size_t i = 0; i < n; i++) {
    const astar_point p = path[i];
    if (!FITS(p.x, p.y)) goto bad;
    if (i == 0) continue;
    const astar_point a = path[i - 1];
    const int dx = p.x - a.x, dy = p.y - a.y;
    int d = -1;
    for (int k = 0; k < 8; k++)
      if (astar__dir_dx[k] == dx && astar__dir_dy[k] == dy) d = k;
    if (d < 0) goto bad;
    if (d >= 4) {
      /* The side anchors fit exactly when the corner cells are free. */
      const int sides = FITS(a.x + dx, a.y) + FITS(a.x, a.y + dy);
      if (!diagonals || (opt->corner == ASTAR_CORNER_NO_CUT && sides < 2) ||
          (opt->corner == ASTAR_CORNER_ONE_SIDE && sides < 1))
        goto bad;
    }
    const double mc = d < 4 ? opt->straight_cost : opt->diagonal_cost;
    total += grid->terrain ? mc * footprint_terrain(grid, p.x, p.y, size) : mc;
    if (last_d >= 0 && d != last_d) total += opt->turn_penalty;
    last_d = d;
    continue;
  bad:
    if (bad_index) *bad_index = i;
    return ASTAR_INVALID_ARGUMENT;
  }
#undef FITS
  if (cost) *cost = total;
  return ASTAR_OK;
}

/* ---- terrain types from map text ----------------------------------------- */

static uint8_t type_of(char ch, bool movingai) {
  switch (ch) {
  case 'S':
    return movingai ? ASTAR_TYPE_SWAMP : ASTAR_TYPE_GROUND; /* ASCII 'S' is the start */
  case 'W':
    return ASTAR_TYPE_WATER;
  case 'T':
    return ASTAR_TYPE_TREES;
  case '@':
  case 'O':
  case '#':
    return ASTAR_TYPE_WALL;
  default:
    return ASTAR_TYPE_GROUND;
  }
}

/* The next line of text[*pos .. len) without its terminator (LF, CRLF, CR). */
static bool next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n) {
  if (*pos >= len) return false;
  size_t i = *pos;
  while (i < len && text[i] != '\n' && text[i] != '\r') i++;
  *line = text + *pos;
  *n = i - *pos;
  if (i < len) i += (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') ? 2 : 1;
  *pos = i;
  return true;
}

/* First space-separated word of the line is `word`? */
static bool starts_word(const char *s, size_t n, const char *word) {
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  const size_t wn = strlen(word);
  if (n - i < wn || memcmp(s + i, word, wn) != 0) return false;
  i += wn;
  return i == n || s[i] == ' ' || s[i] == '\t';
}

astar_status astar_terrain_types_parse(const char *text, size_t len, const astar_grid *grid,
                                       uint8_t *types, size_t cap) {
  if (!text || !grid || !types) return ASTAR_INVALID_ARGUMENT;
  const size_t w = (size_t)grid->width, h = (size_t)grid->height;
  if (cap < w * h) return ASTAR_BUFFER_TOO_SMALL;
  /* The format, as astar_parse_map decides it: Moving AI when the first
  ** non-blank line starts with a header keyword. */
  size_t pos = 0, n;
  const char *s;
  bool movingai = false;
  while (next_line(text, len, &pos, &s, &n)) {
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i == n) continue;
    movingai =
        starts_word(s, n, "type") || starts_word(s, n, "height") || starts_word(s, n, "width");
    break;
  }
  pos = 0;
  if (movingai) {
    while (next_line(text, len, &pos, &s, &n))
      if (starts_word(s, n, "map")) break;
  } else {
    /* Skip comments and leading empty lines, without consuming the first row. */
    size_t at = pos;
    while (next_line(text, len, &pos, &s, &n)) {
      if (n == 0 || s[0] == ';') {
        at = pos;
        continue;
      }
      break;
    }
    pos = at;
  }
  for (size_t y = 0; y < h;) {
    if (!next_line(text, len, &pos, &s, &n)) return ASTAR_MISMATCH;
    if (!movingai && n > 0 && s[0] == ';') continue;
    if (n < w) return ASTAR_MISMATCH;
    for (size_t x = 0; x < w; x++) types[y * w + x] = type_of(s[x], movingai);
    y++;
  }
  return ASTAR_OK;
}
