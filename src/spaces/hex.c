/*
** spaces/hex.c -- hexagonal grids (astar/hex.h): offset / axial / cube
** coordinates, the grid of passable cells and terrain factors, and the grid
** as a search space.
**
** Layout. Cells are stored row-major with a one-cell blocked border, as the
** square grid does, so that no neighbour needs a bounds check: cell (x, y)
** lives at (y + 1) * stride + x + 1. In offset coordinates the step to a
** neighbour depends on the parity of the row (pointy) or column (flat), so
** the grid keeps, for each parity, the six node-id and padded-index steps,
** derived once from the axial conversions (one definition of adjacency).
*/
#include "core/internal.h"

#include "astar/hex.h"

#include <string.h>

struct astar_hex_grid {
  astar_allocator alloc;             /* where the blocks below came from */
  int32_t width, height;             /* cells */
  int32_t stride;                    /* width + 2 */
  uint32_t ncells;                   /* padded cells: stride * (height + 2) */
  astar_hex_orientation orientation; /* pointy or flat */
  astar_hex_layout layout;           /* odd or even */
  uint8_t *pass;                     /* [ncells] 1 passable; border 0 */
  float *terrain;                    /* [ncells] entry cost factor */
  float min_terrain;                 /* smallest factor over the cells */
  uint32_t min_count;                /* cells holding min_terrain */
  uint64_t version;                  /* bumped by every change */
  int32_t node_step[2][6];           /* node-id step per parity and direction */
  int32_t pad_step[2][6];            /* padded-index step per parity and direction */
};

/* ---- coordinates ------------------------------------------------------------ */

/* The parity of v, 0 or 1, for negative values too. */
static int64_t parity(int64_t v) {
  return ((v % 2) + 2) % 2;
}

static const int8_t dir_q[6] = {1, 1, 0, -1, -1, 0};
static const int8_t dir_r[6] = {0, -1, -1, 0, 1, 1};

/* The offset of the shoved rows / columns: 1 for a shoved line, else 0. */
static int64_t shoved(astar_hex_layout layout, int64_t line) {
  const int64_t odd = parity(line);
  return layout == ASTAR_HEX_EVEN ? 1 - odd : odd;
}

astar_hex_axial astar_hex_offset_to_axial(astar_hex_orientation orientation,
                                          astar_hex_layout layout, astar_point cell) {
  const int64_t x = cell.x, y = cell.y;
  astar_hex_axial a;
  /* (line - parity) / 2 for odd layouts, (line + parity) / 2 for even ones:
  ** the number of shoves between line 0 and this line. */
  if (orientation == ASTAR_HEX_FLAT) {
    const int64_t p = parity(x), half = layout == ASTAR_HEX_EVEN ? (x + p) / 2 : (x - p) / 2;
    a.q = (int32_t)x;
    a.r = (int32_t)(y - half);
  } else {
    const int64_t p = parity(y), half = layout == ASTAR_HEX_EVEN ? (y + p) / 2 : (y - p) / 2;
    a.q = (int32_t)(x - half);
    a.r = (int32_t)y;
  }
  return a;
}

astar_point astar_hex_axial_to_offset(astar_hex_orientation orientation, astar_hex_layout layout,
                                      astar_hex_axial hex) {
  const int64_t q = hex.q, r = hex.r;
  astar_point c;
  if (orientation == ASTAR_HEX_FLAT) {
    const int64_t p = parity(q), half = layout == ASTAR_HEX_EVEN ? (q + p) / 2 : (q - p) / 2;
    c.x = (int32_t)q;
    c.y = (int32_t)(r + half);
  } else {
    const int64_t p = parity(r), half = layout == ASTAR_HEX_EVEN ? (r + p) / 2 : (r - p) / 2;
    c.x = (int32_t)(q + half);
    c.y = (int32_t)r;
  }
  return c;
}

astar_hex_cube astar_hex_axial_to_cube(astar_hex_axial hex) {
  const astar_hex_cube c = {hex.q, hex.r, (int32_t)(-(int64_t)hex.q - (int64_t)hex.r)};
  return c;
}

astar_hex_axial astar_hex_cube_to_axial(astar_hex_cube cube) {
  const astar_hex_axial a = {cube.q, cube.r};
  return a;
}

static int64_t abs64(int64_t v) {
  return v < 0 ? -v : v;
}

int64_t astar_hex_distance(astar_hex_axial a, astar_hex_axial b) {
  const int64_t dq = (int64_t)a.q - b.q, dr = (int64_t)a.r - b.r;
  return (abs64(dq) + abs64(dr) + abs64(dq + dr)) / 2;
}

astar_hex_axial astar_hex_direction(int d) {
  const int k = ((d % 6) + 6) % 6;
  const astar_hex_axial a = {dir_q[k], dir_r[k]};
  return a;
}

astar_point astar_hex_neighbor(astar_hex_orientation orientation, astar_hex_layout layout,
                               astar_point cell, int d) {
  astar_hex_axial a = astar_hex_offset_to_axial(orientation, layout, cell);
  const astar_hex_axial step = astar_hex_direction(d);
  a.q = (int32_t)((int64_t)a.q + step.q);
  a.r = (int32_t)((int64_t)a.r + step.r);
  return astar_hex_axial_to_offset(orientation, layout, a);
}

void astar_hex_center(astar_hex_orientation orientation, astar_hex_layout layout, astar_point cell,
                      double xy[2]) {
  const double root3 = 1.7320508075688772935;
  if (orientation == ASTAR_HEX_FLAT) {
    xy[0] = 1.0 + 1.5 * (double)cell.x;
    xy[1] = root3 * ((double)cell.y + 0.5 + 0.5 * (double)shoved(layout, cell.x));
  } else {
    xy[0] = root3 * ((double)cell.x + 0.5 + 0.5 * (double)shoved(layout, cell.y));
    xy[1] = 1.0 + 1.5 * (double)cell.y;
  }
}

/* ---- the grid ------------------------------------------------------------------ */

ASTAR__INLINE uint32_t pad_index(const astar_hex_grid *g, int32_t x, int32_t y) {
  return (uint32_t)(y + 1) * (uint32_t)g->stride + (uint32_t)(x + 1);
}

/* Which parity table a cell uses: its row's (pointy) or column's (flat). */
ASTAR__INLINE int cell_parity(const astar_hex_grid *g, uint32_t x, uint32_t y) {
  return (int)((g->orientation == ASTAR_HEX_FLAT ? x : y) & 1u);
}

/* The steps to the six neighbours of a cell of each parity, from the
** conversions: a cell of parity p at (p, p) stands for every such cell,
** since shifting by two rows or columns changes no step. */
static void derive_steps(astar_hex_grid *g) {
  for (int p = 0; p < 2; p++) {
    const astar_point c = {p, p};
    for (int d = 0; d < 6; d++) {
      const astar_point n = astar_hex_neighbor(g->orientation, g->layout, c, d);
      const int32_t dx = n.x - c.x, dy = n.y - c.y;
      g->node_step[p][d] = dy * g->width + dx;
      g->pad_step[p][d] = dy * g->stride + dx;
    }
  }
}

static void free_blocks(astar_hex_grid *g) {
  astar__free(&g->alloc, g->pass, (size_t)g->ncells * sizeof *g->pass);
  astar__free(&g->alloc, g->terrain, (size_t)g->ncells * sizeof *g->terrain);
}

astar_status astar_hex_grid_new(astar_hex_grid **out, int32_t width, int32_t height,
                                astar_hex_orientation orientation, astar_hex_layout layout,
                                const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (width < 1 || height < 1 ||
      (orientation != ASTAR_HEX_POINTY && orientation != ASTAR_HEX_FLAT) ||
      (layout != ASTAR_HEX_ODD && layout != ASTAR_HEX_EVEN))
    return ASTAR_INVALID_ARGUMENT;
  if (width > ASTAR_HEX_MAX_SIDE || height > ASTAR_HEX_MAX_SIDE ||
      (uint64_t)width * (uint64_t)height > ASTAR_HEX_MAX_CELLS)
    return ASTAR_TOO_LARGE;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_hex_grid *g = astar__malloc(&a, sizeof *g);
  if (!g) return ASTAR_NO_MEMORY;
  memset(g, 0, sizeof *g);
  g->alloc = a;
  g->width = width;
  g->height = height;
  g->stride = width + 2;
  g->ncells = (uint32_t)g->stride * (uint32_t)(height + 2);
  g->orientation = orientation;
  g->layout = layout;
  g->pass = astar__calloc(&a, g->ncells, sizeof *g->pass);
  g->terrain = g->pass ? astar__malloc(&a, (size_t)g->ncells * sizeof *g->terrain) : NULL;
  if (!g->terrain) {
    free_blocks(g);
    astar__free(&a, g, sizeof *g);
    return ASTAR_NO_MEMORY;
  }
  for (uint32_t i = 0; i < g->ncells; i++) g->terrain[i] = 1.0f;
  for (int32_t y = 0; y < height; y++) memset(g->pass + pad_index(g, 0, y), 1, (size_t)width);
  g->min_terrain = 1.0f;
  g->min_count = (uint32_t)width * (uint32_t)height;
  derive_steps(g);
  *out = g;
  return ASTAR_OK;
}

void astar_hex_grid_free(astar_hex_grid *grid) {
  if (!grid) return;
  const astar_allocator a = grid->alloc;
  free_blocks(grid);
  astar__free(&a, grid, sizeof *grid);
}

int32_t astar_hex_grid_width(const astar_hex_grid *grid) {
  return grid ? grid->width : 0;
}

int32_t astar_hex_grid_height(const astar_hex_grid *grid) {
  return grid ? grid->height : 0;
}

astar_hex_orientation astar_hex_grid_orientation(const astar_hex_grid *grid) {
  return grid ? grid->orientation : ASTAR_HEX_POINTY;
}

astar_hex_layout astar_hex_grid_layout(const astar_hex_grid *grid) {
  return grid ? grid->layout : ASTAR_HEX_ODD;
}

bool astar_hex_grid_contains(const astar_hex_grid *grid, int32_t x, int32_t y) {
  return grid && x >= 0 && y >= 0 && x < grid->width && y < grid->height;
}

bool astar_hex_grid_passable(const astar_hex_grid *grid, int32_t x, int32_t y) {
  return astar_hex_grid_contains(grid, x, y) && grid->pass[pad_index(grid, x, y)];
}

astar_status astar_hex_grid_set_passable(astar_hex_grid *grid, int32_t x, int32_t y,
                                         bool passable) {
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  if (!astar_hex_grid_contains(grid, x, y)) return ASTAR_OUT_OF_BOUNDS;
  uint8_t *p = &grid->pass[pad_index(grid, x, y)];
  if (*p != (uint8_t)passable) {
    *p = (uint8_t)passable;
    grid->version++;
  }
  return ASTAR_OK;
}

/* The minimum and its count again, after the last cell holding it rose. */
static void rescan_min(astar_hex_grid *g) {
  float m = ASTAR_HEX_TERRAIN_MAX;
  uint32_t n = 0;
  for (int32_t y = 0; y < g->height; y++) {
    const float *row = g->terrain + pad_index(g, 0, y);
    for (int32_t x = 0; x < g->width; x++) {
      if (row[x] < m) {
        m = row[x];
        n = 1;
      } else if (row[x] == m) {
        n++;
      }
    }
  }
  g->min_terrain = m;
  g->min_count = n;
}

astar_status astar_hex_grid_set_terrain(astar_hex_grid *grid, int32_t x, int32_t y, float cost) {
  if (!grid || !(cost > 0.0f && cost <= ASTAR_HEX_TERRAIN_MAX)) return ASTAR_INVALID_ARGUMENT;
  if (!astar_hex_grid_contains(grid, x, y)) return ASTAR_OUT_OF_BOUNDS;
  float *t = &grid->terrain[pad_index(grid, x, y)];
  const float old = *t;
  if (old == cost) return ASTAR_OK;
  *t = cost;
  grid->version++;
  if (cost < grid->min_terrain) {
    grid->min_terrain = cost;
    grid->min_count = 1;
  } else if (cost == grid->min_terrain) {
    grid->min_count++;
  } else if (old == grid->min_terrain && --grid->min_count == 0) {
    rescan_min(grid);
  }
  return ASTAR_OK;
}

float astar_hex_grid_terrain(const astar_hex_grid *grid, int32_t x, int32_t y) {
  return astar_hex_grid_contains(grid, x, y) ? grid->terrain[pad_index(grid, x, y)] : 0.0f;
}

float astar_hex_grid_min_terrain(const astar_hex_grid *grid) {
  return grid ? grid->min_terrain : 0.0f;
}

size_t astar_hex_grid_count_passable(const astar_hex_grid *grid) {
  size_t n = 0;
  if (!grid) return 0;
  for (int32_t y = 0; y < grid->height; y++) {
    const uint8_t *row = grid->pass + pad_index(grid, 0, y);
    for (int32_t x = 0; x < grid->width; x++) n += row[x];
  }
  return n;
}

uint64_t astar_hex_grid_version(const astar_hex_grid *grid) {
  return grid ? grid->version : 0;
}

astar_node astar_hex_grid_node(const astar_hex_grid *grid, astar_point cell) {
  if (!astar_hex_grid_contains(grid, cell.x, cell.y)) return ASTAR_NODE_NONE;
  return (astar_node)cell.y * (astar_node)grid->width + (astar_node)cell.x;
}

astar_point astar_hex_grid_cell(const astar_hex_grid *grid, astar_node node) {
  astar_point c = {-1, -1};
  if (!grid || node >= (uint32_t)grid->width * (uint32_t)grid->height) return c;
  c.x = (int32_t)(node % (uint32_t)grid->width);
  c.y = (int32_t)(node / (uint32_t)grid->width);
  return c;
}

/* ---- the space ------------------------------------------------------------------- */

/* Both directions: the arcs to (successors) or from (predecessors) the
** passable neighbours of v cost the terrain of the cell entered -- the
** neighbour for successors, v itself for predecessors. */
ASTAR__INLINE size_t arcs_of(const astar_hex_grid *g, astar_node v, astar_arc *arcs, size_t cap,
                             const bool incoming) {
  const uint32_t w = (uint32_t)g->width, y = v / w, x = v - y * w;
  const uint32_t p = (y + 1) * (uint32_t)g->stride + x + 1;
  if (!g->pass[p]) return 0;
  const int par = cell_parity(g, x, y);
  const int32_t *nstep = g->node_step[par], *pstep = g->pad_step[par];
  size_t n = 0;
  for (int d = 0; d < 6 && n < cap; d++) {
    const uint32_t pu = (uint32_t)((int32_t)p + pstep[d]);
    if (!g->pass[pu]) continue;
    arcs[n].node = (astar_node)((int32_t)v + nstep[d]);
    arcs[n].cost = (double)g->terrain[incoming ? p : pu];
    n++;
  }
  return n;
}

static size_t successors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, false);
}

static size_t predecessors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, true);
}

/* Hex distance times the cheapest entry: every step costs at least that
** much, and one step changes the distance by at most one (consistent). */
static double heuristic(const void *self, astar_node a, astar_node b) {
  const astar_hex_grid *g = self;
  const uint32_t w = (uint32_t)g->width;
  const astar_point ca = {(int32_t)(a % w), (int32_t)(a / w)};
  const astar_point cb = {(int32_t)(b % w), (int32_t)(b / w)};
  const astar_hex_axial ha = astar_hex_offset_to_axial(g->orientation, g->layout, ca);
  const astar_hex_axial hb = astar_hex_offset_to_axial(g->orientation, g->layout, cb);
  return (double)g->min_terrain * (double)astar_hex_distance(ha, hb);
}

static bool usable(const void *self, astar_node v) {
  const astar_hex_grid *g = self;
  const uint32_t w = (uint32_t)g->width, y = v / w, x = v - y * w;
  return g->pass[(y + 1) * (uint32_t)g->stride + x + 1] != 0;
}

static bool position(const void *self, astar_node v, double xyz[3]) {
  const astar_hex_grid *g = self;
  const astar_point c = astar_hex_grid_cell(g, v);
  if (c.x < 0) return false;
  astar_hex_center(g->orientation, g->layout, c, xyz);
  xyz[2] = 0.0;
  return true;
}

static uint64_t version(const void *self) {
  return ((const astar_hex_grid *)self)->version;
}

static const astar_space_ops hex_ops = {successors, predecessors, heuristic, usable,
                                        position,   version,      0};

astar_status astar_hex_space(const astar_hex_grid *grid, astar_space *out) {
  if (!grid || !out) return ASTAR_INVALID_ARGUMENT;
  memset(out, 0, sizeof *out);
  out->ops = &hex_ops;
  out->self = grid;
  out->node_count = (uint32_t)grid->width * (uint32_t)grid->height;
  out->max_degree = 6;
  out->flags = ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT;
  return ASTAR_OK;
}
