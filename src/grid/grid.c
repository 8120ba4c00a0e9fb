/*
** grid.c -- the square grid: passability, the neighbour bytes kept in step
** with it, and the optional terrain layer with its running minimum.
*/
#include "core/internal.h"

#include "core/bytes.h"

#include <math.h>
#include <string.h>

const int8_t astar__dir_dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
const int8_t astar__dir_dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

static int32_t dir_offset(const astar_grid *g, int d) {
  return astar__dir_dy[d] * g->stride + astar__dir_dx[d];
}

static size_t rbits_bytes(const astar_grid *g) {
  return (size_t)(g->height + 2) * g->rwords * sizeof(uint64_t);
}
static size_t cbits_bytes(const astar_grid *g) {
  return (size_t)(g->width + 2) * g->cwords * sizeof(uint64_t);
}

static void set_bit(uint64_t *line, uint32_t i, bool on) {
  const uint64_t m = (uint64_t)1 << (i & 63);
  line[i >> 6] = on ? line[i >> 6] | m : line[i >> 6] & ~m;
}

/* Recompute both bit layers from pass. */
static void rebuild_bits(astar_grid *g) {
  memset(g->rbits, 0, rbits_bytes(g));
  memset(g->cbits, 0, cbits_bytes(g));
  for (int32_t y = 0; y < g->height; y++) {
    const uint32_t row = astar__index(g, 0, y);
    for (int32_t x = 0; x < g->width; x++)
      if (g->pass[row + (uint32_t)x]) {
        set_bit(g->rbits + (size_t)(y + 1) * g->rwords, (uint32_t)x + 1, true);
        set_bit(g->cbits + (size_t)(x + 1) * g->cwords, (uint32_t)y + 1, true);
      }
  }
}

static void free_arrays(astar_grid *g) {
  astar__free(&g->alloc, g->log, g->log_cap * sizeof *g->log);
  astar__free(&g->alloc, g->pass, g->ncells);
  astar__free(&g->alloc, g->nb, g->ncells);
  astar__free(&g->alloc, g->rbits, rbits_bytes(g));
  astar__free(&g->alloc, g->cbits, cbits_bytes(g));
  astar__free(&g->alloc, g->terrain, (size_t)g->ncells * sizeof(float));
}

/* Recompute nb for every interior cell from pass (border bytes stay 0:
** border cells are never expanded). Written as one pass over three row
** pointers so the compiler can vectorise it. */
static void rebuild_neighbours(astar_grid *g) {
  const int32_t s = g->stride;
  memset(g->nb, 0, g->ncells);
  for (int32_t y = 0; y < g->height; y++) {
    const uint32_t row = astar__index(g, 0, y);
    const uint8_t *up = g->pass + row - s, *mid = g->pass + row, *down = g->pass + row + s;
    uint8_t *out = g->nb + row;
    for (int32_t x = 0; x < g->width; x++) {
      out[x] =
          (uint8_t)(up[x] << ASTAR__N | mid[x + 1] << ASTAR__E | down[x] << ASTAR__S |
                    mid[x - 1] << ASTAR__W | up[x + 1] << ASTAR__NE | down[x + 1] << ASTAR__SE |
                    down[x - 1] << ASTAR__SW | up[x - 1] << ASTAR__NW);
    }
  }
}

static bool dims_ok(int32_t w, int32_t h) {
  if (w < 1 || h < 1 || w > ASTAR_GRID_MAX_SIDE || h > ASTAR_GRID_MAX_SIDE) return false;
  return (uint64_t)w * (uint64_t)h <= ASTAR_GRID_MAX_CELLS;
}

astar_status astar_grid_new(astar_grid **out, int32_t width, int32_t height,
                            const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (width < 1 || height < 1) return ASTAR_INVALID_ARGUMENT;
  if (!dims_ok(width, height)) return ASTAR_TOO_LARGE;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_grid *g = astar__malloc(&a, sizeof *g);
  if (!g) return ASTAR_NO_MEMORY;
  memset(g, 0, sizeof *g);
  g->alloc = a;
  g->width = width;
  g->height = height;
  g->stride = width + 2;
  g->ncells = (uint32_t)g->stride * (uint32_t)(height + 2);
  g->min_terrain = 1.0f;
  g->min_count = (uint32_t)width * (uint32_t)height;
  g->rwords = ((uint32_t)g->stride + 63) / 64 + 1;
  g->cwords = ((uint32_t)height + 2 + 63) / 64 + 1;
  g->pass = astar__calloc(&a, g->ncells, 1);
  g->nb = astar__calloc(&a, g->ncells, 1);
  g->rbits = astar__calloc(&a, rbits_bytes(g), 1);
  g->cbits = astar__calloc(&a, cbits_bytes(g), 1);
  if (!g->pass || !g->nb || !g->rbits || !g->cbits) {
    free_arrays(g);
    astar__free(&a, g, sizeof *g);
    return ASTAR_NO_MEMORY;
  }
  for (int32_t y = 0; y < height; y++) memset(g->pass + astar__index(g, 0, y), 1, (size_t)width);
  rebuild_neighbours(g);
  rebuild_bits(g);
  *out = g;
  return ASTAR_OK;
}

void astar_grid_free(astar_grid *grid) {
  if (!grid) return;
  astar_allocator a = grid->alloc;
  free_arrays(grid);
  astar__free(&a, grid, sizeof *grid);
}

astar_status astar_grid_clone(astar_grid **out, const astar_grid *grid,
                              const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_grid *g = astar__malloc(&a, sizeof *g);
  if (!g) return ASTAR_NO_MEMORY;
  *g = *grid;
  g->alloc = a;
  g->log = NULL; /* the copy starts untracked: its log begins at its first change */
  g->log_cap = 0;
  g->log_floor = grid->version;
  g->pass = astar__malloc(&a, grid->ncells);
  g->nb = astar__malloc(&a, grid->ncells);
  g->rbits = astar__malloc(&a, rbits_bytes(grid));
  g->cbits = astar__malloc(&a, cbits_bytes(grid));
  g->terrain = grid->terrain ? astar__malloc(&a, (size_t)grid->ncells * sizeof(float)) : NULL;
  if (!g->pass || !g->nb || !g->rbits || !g->cbits || (grid->terrain && !g->terrain)) {
    free_arrays(g);
    astar__free(&a, g, sizeof *g);
    return ASTAR_NO_MEMORY;
  }
  memcpy(g->pass, grid->pass, grid->ncells);
  memcpy(g->nb, grid->nb, grid->ncells);
  memcpy(g->rbits, grid->rbits, rbits_bytes(grid));
  memcpy(g->cbits, grid->cbits, cbits_bytes(grid));
  if (grid->terrain) memcpy(g->terrain, grid->terrain, (size_t)grid->ncells * sizeof(float));
  *out = g;
  return ASTAR_OK;
}

int32_t astar_grid_width(const astar_grid *grid) {
  return grid ? grid->width : 0;
}
int32_t astar_grid_height(const astar_grid *grid) {
  return grid ? grid->height : 0;
}

bool astar_grid_contains(const astar_grid *grid, int32_t x, int32_t y) {
  return grid && x >= 0 && y >= 0 && x < grid->width && y < grid->height;
}

bool astar_grid_passable(const astar_grid *grid, int32_t x, int32_t y) {
  return astar_grid_contains(grid, x, y) && grid->pass[astar__index(grid, x, y)];
}

/* Count one cell change (the version) and, when tracked, log it. Called
** before the cell is written, with its state before and after. */
static void log_change(astar_grid *g, int32_t x, int32_t y, bool was_passable, bool passable,
                       float old_terrain, float new_terrain) {
  g->version++;
  if (!g->log_cap) {
    g->log_floor = g->version;
    return;
  }
  astar_cell_change *c = &g->log[g->version % g->log_cap];
  c->version = g->version;
  c->x = x;
  c->y = y;
  c->old_terrain = old_terrain;
  c->new_terrain = new_terrain;
  c->was_passable = was_passable;
  c->passable = passable;
}

astar_status astar_grid_set_passable(astar_grid *grid, int32_t x, int32_t y, bool passable) {
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  if (!astar_grid_contains(grid, x, y)) return ASTAR_OUT_OF_BOUNDS;
  const uint32_t u = astar__index(grid, x, y);
  const uint8_t p = passable ? 1 : 0;
  if (grid->pass[u] == p) return ASTAR_OK;
  const float t = grid->terrain ? grid->terrain[u] : 1.0f;
  log_change(grid, x, y, !passable, passable, t, t);
  grid->pass[u] = p;
  set_bit(grid->rbits + (size_t)(y + 1) * grid->rwords, (uint32_t)x + 1, passable);
  set_bit(grid->cbits + (size_t)(x + 1) * grid->cwords, (uint32_t)y + 1, passable);
  /* Tell each neighbour: the cell is its neighbour in the opposite direction. */
  for (int d = 0; d < 8; d++) {
    uint8_t *nb = &grid->nb[(int64_t)u + dir_offset(grid, d)];
    const uint8_t bit = (uint8_t)(1u << ASTAR__OPPOSITE(d));
    *nb = p ? (uint8_t)(*nb | bit) : (uint8_t)(*nb & ~bit);
  }
  return ASTAR_OK;
}

astar_status astar_grid_fill(astar_grid *grid, bool passable) {
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  for (int32_t y = 0; y < grid->height; y++)
    memset(grid->pass + astar__index(grid, 0, y), passable ? 1 : 0, (size_t)grid->width);
  rebuild_neighbours(grid);
  rebuild_bits(grid);
  astar__grid_touch_all(grid);
  return ASTAR_OK;
}

/* Recount min_terrain / min_count over the interior. O(cells). */
static void rescan_min_terrain(astar_grid *g) {
  float mn = INFINITY;
  uint32_t count = 0;
  for (int32_t y = 0; y < g->height; y++) {
    const float *row = g->terrain + astar__index(g, 0, y);
    for (int32_t x = 0; x < g->width; x++) {
      if (row[x] < mn) {
        mn = row[x];
        count = 1;
      } else if (row[x] == mn) {
        count++;
      }
    }
  }
  g->min_terrain = mn;
  g->min_count = count;
}

astar_status astar_grid_set_terrain(astar_grid *grid, int32_t x, int32_t y, float cost) {
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  if (!(cost > 0.0f && cost <= ASTAR_TERRAIN_MAX)) return ASTAR_INVALID_ARGUMENT; /* also NaN */
  if (!astar_grid_contains(grid, x, y)) return ASTAR_OUT_OF_BOUNDS;
  if (!grid->terrain) {
    if (cost == 1.0f) return ASTAR_OK;
    float *t = astar__malloc(&grid->alloc, (size_t)grid->ncells * sizeof(float));
    if (!t) return ASTAR_NO_MEMORY;
    for (uint32_t i = 0; i < grid->ncells; i++) t[i] = 1.0f;
    grid->terrain = t;
  }
  const uint32_t u = astar__index(grid, x, y);
  float *cell = &grid->terrain[u];
  const float old = *cell;
  if (old != cost) log_change(grid, x, y, grid->pass[u], grid->pass[u], old, cost);
  *cell = cost;
  if (cost < grid->min_terrain) {
    grid->min_terrain = cost;
    grid->min_count = 1;
  } else if (cost == grid->min_terrain) {
    if (old != cost) grid->min_count++;
  } else if (old == grid->min_terrain && --grid->min_count == 0) {
    rescan_min_terrain(grid);
  }
  return ASTAR_OK;
}

float astar_grid_terrain(const astar_grid *grid, int32_t x, int32_t y) {
  if (!astar_grid_contains(grid, x, y)) return 0.0f;
  return grid->terrain ? grid->terrain[astar__index(grid, x, y)] : 1.0f;
}

bool astar_grid_has_terrain(const astar_grid *grid) {
  return grid && grid->terrain;
}

float astar_grid_min_terrain(const astar_grid *grid) {
  return grid ? grid->min_terrain : 1.0f;
}

void astar_grid_clear_terrain(astar_grid *grid) {
  if (!grid || !grid->terrain) return;
  astar__free(&grid->alloc, grid->terrain, (size_t)grid->ncells * sizeof(float));
  grid->terrain = NULL;
  astar__grid_touch_all(grid);
  grid->min_terrain = 1.0f;
  grid->min_count = (uint32_t)grid->width * (uint32_t)grid->height;
}

size_t astar_grid_count_passable(const astar_grid *grid) {
  if (!grid) return 0;
  size_t n = 0;
  for (uint32_t i = 0; i < grid->ncells; i++) n += grid->pass[i];
  return n;
}

size_t astar_grid_memory(const astar_grid *grid) {
  if (!grid) return 0;
  size_t n = sizeof *grid + 2 * (size_t)grid->ncells + rbits_bytes(grid) + cbits_bytes(grid);
  if (grid->terrain) n += (size_t)grid->ncells * sizeof(float);
  return n;
}

uint64_t astar_grid_version(const astar_grid *grid) {
  return grid ? grid->version : 0;
}

/* ---- change tracking ------------------------------------------------------- */

void astar__grid_touch_all(astar_grid *g) {
  g->version++;
  g->log_floor = g->version;
}

astar_status astar_grid_track_changes(astar_grid *grid, size_t capacity) {
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_cell_change *ring = NULL;
  if (capacity > 0) {
    if (capacity > SIZE_MAX / sizeof *ring) return ASTAR_NO_MEMORY;
    ring = astar__malloc(&grid->alloc, capacity * sizeof *ring);
    if (!ring) return ASTAR_NO_MEMORY;
  }
  astar__free(&grid->alloc, grid->log, grid->log_cap * sizeof *grid->log);
  grid->log = ring;
  grid->log_cap = capacity;
  grid->log_floor = grid->version; /* earlier changes are not in the new ring */
  return ASTAR_OK;
}

size_t astar_grid_change_capacity(const astar_grid *grid) {
  return grid ? grid->log_cap : 0;
}

astar_status astar_grid_changes(const astar_grid *grid, uint64_t since, astar_cell_change *buf,
                                size_t cap, size_t *len) {
  if (!grid || !len || (!buf && cap > 0) || since > grid->version) return ASTAR_INVALID_ARGUMENT;
  const uint64_t n = grid->version - since;
  if (!astar__grid_log_covers(grid, since)) return ASTAR_STALE;
  *len = (size_t)n;
  if (n == 0) return ASTAR_OK;
  if (n > cap) return ASTAR_BUFFER_TOO_SMALL;
  for (uint64_t i = 0; i < n; i++) buf[i] = *astar__grid_change(grid, since + 1 + i);
  return ASTAR_OK;
}

uint64_t astar__grid_cells_checksum(const astar_grid *g) {
  uint64_t h =
      astar__hash_word(ASTAR__HASH_INIT, (uint64_t)(uint32_t)g->width << 32 | (uint32_t)g->height);
  for (int32_t y = 0; y < g->height; y++) {
    const uint64_t *line = astar__row(g, (uint32_t)y + 1);
    for (int32_t x = 0; x < g->width; x += 64) {
      uint64_t bits = astar__bits_at(line, (uint32_t)x + 1);
      if (g->width - x < 64) bits &= ((uint64_t)1 << (g->width - x)) - 1;
      h = astar__hash_word(h, bits);
    }
  }
  return h;
}
