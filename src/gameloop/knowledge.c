/*
** knowledge.c -- fog of war: one player's record of which cells it has seen
** and what they were. A byte a cell in the grid's padded layout (layers.h),
** the border marked blocked, so a search derives the player's neighbour
** bytes from it exactly as it reads the grid's.
**
** Versions. Every write goes through note() or clear's own tally, so the
** three counters of layers.h move exactly when a cell's state does: a call
** that writes what was already there changes no counter, and a search that
** recorded a counter at begin can trust it (astar_search_step). note() also
** logs the cell in the ring of every counter it moves, so each counter
** value past the ring's floor names the one cell whose change made it.
*/
#include "gameloop/layers.h"

#include <math.h>
#include <string.h>

static bool contains(const astar_knowledge *k, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < k->width && y < k->height;
}

static uint32_t index_of(const astar_knowledge *k, int32_t x, int32_t y) {
  return (uint32_t)(y + 1) * (uint32_t)k->stride + (uint32_t)(x + 1);
}

/* Log padded cell i going from state `from` to state `to` (which may be
** equal: then nothing changes) in the counters it moves and their rings. */
static void note(astar_knowledge *k, uint32_t i, uint8_t from, uint8_t to) {
  if (from == to) return;
  const bool walls = (from == ASTAR_CELL_BLOCKED) != (to == ASTAR_CELL_BLOCKED);
  const bool opens = (from == ASTAR_CELL_PASSABLE) != (to == ASTAR_CELL_PASSABLE);
  const bool moved[3] = {true, walls, opens};
  for (int c = 0; c < 3; c++) {
    if (!moved[c]) continue;
    k->log[(size_t)c * ASTAR__KLOG + (k->count[c] & (ASTAR__KLOG - 1))] = i;
    k->count[c]++;
  }
}

/* The change log: a ring of ASTAR__KLOG cells per counter (layers.h). */
#define LOG_BYTES ((size_t)3 * ASTAR__KLOG * sizeof(uint32_t))

/* Interior unknown, border blocked. */
static void reset(astar_knowledge *k) {
  memset(k->state, ASTAR_CELL_BLOCKED, k->ncells);
  for (int32_t y = 0; y < k->height; y++)
    memset(k->state + index_of(k, 0, y), ASTAR_CELL_UNKNOWN, (size_t)k->width);
}

astar_status astar_knowledge_new(astar_knowledge **out, const astar_grid *grid,
                                 const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_knowledge *k = astar__malloc(&a, sizeof *k);
  if (!k) return ASTAR_NO_MEMORY;
  k->alloc = a;
  k->width = grid->width;
  k->height = grid->height;
  k->stride = grid->stride;
  k->ncells = grid->ncells;
  k->state = astar__malloc(&a, k->ncells);
  k->log = astar__malloc(&a, LOG_BYTES);
  if (!k->state || !k->log) {
    if (k->state) astar__free(&a, k->state, k->ncells);
    if (k->log) astar__free(&a, k->log, LOG_BYTES);
    astar__free(&a, k, sizeof *k);
    return ASTAR_NO_MEMORY;
  }
  reset(k);
  for (int c = 0; c < 3; c++) k->count[c] = k->floor[c] = 0;
  *out = k;
  return ASTAR_OK;
}

void astar_knowledge_free(astar_knowledge *k) {
  if (!k) return;
  astar_allocator a = k->alloc;
  astar__free(&a, k->state, k->ncells);
  astar__free(&a, k->log, LOG_BYTES);
  astar__free(&a, k, sizeof *k);
}

astar_status astar_knowledge_reveal(astar_knowledge *k, const astar_grid *grid, int32_t x,
                                    int32_t y) {
  if (!k || !grid || !astar__knowledge_fits(k, grid)) return ASTAR_INVALID_ARGUMENT;
  if (!contains(k, x, y)) return ASTAR_OUT_OF_BOUNDS;
  const uint32_t i = index_of(k, x, y);
  const uint8_t s = (uint8_t)(ASTAR_CELL_BLOCKED - grid->pass[i]); /* pass is 0 or 1 */
  note(k, i, k->state[i], s);
  k->state[i] = s;
  return ASTAR_OK;
}

/* floor(sqrt(n)) exactly, for 0 <= n < 2^62 (the double is only a first guess). */
static int64_t isqrt64(int64_t n) {
  int64_t r = (int64_t)sqrt((double)n);
  while (r > 0 && r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

/*
** The disc is walked a row at a time: on row dy the revealed cells are those
** with dx^2 <= radius^2 - dy^2, one contiguous run. Most cells of a unit's
** sight are known already, so the branch to note() a change is rarely
** taken. The centre may lie outside the grid (only the
** part of the disc inside is revealed). The disc test is exact integer
** arithmetic: with |dx|, |dy| <= radius < 2^31 every square fits an int64.
*/
astar_status astar_knowledge_reveal_radius(astar_knowledge *k, const astar_grid *grid, int32_t x,
                                           int32_t y, int32_t radius, size_t *changed) {
  if (changed) *changed = 0;
  if (!k || !grid || !astar__knowledge_fits(k, grid) || radius < 0) return ASTAR_INVALID_ARGUMENT;
  const int64_t r = radius, r2 = r * r;
  const int64_t ylo = y - r < 0 ? 0 : y - r;
  const int64_t yhi = y + r > k->height - 1 ? k->height - 1 : y + r;
  const uint64_t before = k->count[ASTAR__KC_VERSION];
  for (int64_t py = ylo; py <= yhi; py++) {
    const int64_t dy = py - y, half = isqrt64(r2 - dy * dy);
    const int64_t xlo = x - half < 0 ? 0 : x - half;
    const int64_t xhi = x + half > k->width - 1 ? k->width - 1 : x + half;
    if (xlo > xhi) continue;
    const uint32_t row = index_of(k, 0, (int32_t)py);
    uint8_t *st = k->state + row;
    const uint8_t *pass = grid->pass + row;
    for (int64_t px = xlo; px <= xhi; px++) {
      const uint8_t s = (uint8_t)(ASTAR_CELL_BLOCKED - pass[px]);
      if (st[px] != s) {
        note(k, row + (uint32_t)px, st[px], s);
        st[px] = s;
      }
    }
  }
  const size_t n = (size_t)(k->count[ASTAR__KC_VERSION] - before);
  if (changed) *changed = n;
  return ASTAR_OK;
}

astar_status astar_knowledge_set(astar_knowledge *k, int32_t x, int32_t y,
                                 astar_cell_knowledge state) {
  if (!k || (unsigned)state > (unsigned)ASTAR_CELL_BLOCKED) return ASTAR_INVALID_ARGUMENT;
  if (!contains(k, x, y)) return ASTAR_OUT_OF_BOUNDS;
  const uint32_t i = index_of(k, x, y);
  note(k, i, k->state[i], (uint8_t)state);
  k->state[i] = (uint8_t)state;
  return ASTAR_OK;
}

astar_cell_knowledge astar_knowledge_get(const astar_knowledge *k, int32_t x, int32_t y) {
  if (!k || !contains(k, x, y)) return ASTAR_CELL_BLOCKED;
  return (astar_cell_knowledge)k->state[index_of(k, x, y)];
}

/* A whole-object change counts one on each counter it concerns (as
** astar_grid_fill does on the grid's version); forgetting nothing counts
** nothing. */
void astar_knowledge_clear(astar_knowledge *k) {
  if (!k) return;
  bool walls = false, opens = false;
  for (int32_t y = 0; y < k->height; y++) {
    const uint8_t *row = k->state + index_of(k, 0, y);
    for (int32_t x = 0; x < k->width; x++) {
      walls |= row[x] == ASTAR_CELL_BLOCKED;
      opens |= row[x] == ASTAR_CELL_PASSABLE;
    }
  }
  k->count[ASTAR__KC_VERSION] += walls || opens;
  k->count[ASTAR__KC_WALLS] += walls;
  k->count[ASTAR__KC_OPENS] += opens;
  /* No one cell made these changes: the logs start again from here. */
  for (int c = 0; c < 3; c++) k->floor[c] = k->count[c];
  reset(k);
}

uint64_t astar_knowledge_version(const astar_knowledge *k) {
  return k ? k->count[ASTAR__KC_VERSION] : 0;
}

size_t astar_knowledge_count_known(const astar_knowledge *k) {
  if (!k) return 0;
  /* Count over the whole array (one vectorisable loop), then take away the
   * border, which is always "known blocked". */
  size_t n = 0;
  for (uint32_t i = 0; i < k->ncells; i++) n += k->state[i] != ASTAR_CELL_UNKNOWN;
  return n - (k->ncells - (size_t)k->width * (size_t)k->height);
}

int32_t astar_knowledge_width(const astar_knowledge *k) {
  return k ? k->width : 0;
}

int32_t astar_knowledge_height(const astar_knowledge *k) {
  return k ? k->height : 0;
}
