/*
** reservations.c -- the reservation table of cooperative pathfinding
** (astar/spacetime.h): (cell, time) -> agent, moves (for swaps) and goals
** held for ever, in one open-addressing hash with linear probing.
**
** Sizing. The hash has at least twice as many slots as the capacity, so a
** probe sequence always meets an empty slot and stays short. Reserving
** never allocates: a path that does not fit is refused whole
** (ASTAR_CAPACITY). Clearing bumps a generation (a slot is live iff its
** gen equals the table's), so it costs nothing; releasing some entries
** rebuilds the hash into the spare array (linear probing cannot simply
** empty a slot: later keys of the same run would be lost).
*/
#include "dynamic/spacetime.h"

#include <string.h>

#define MAX_CAPACITY ((size_t)1 << 26)

static void free_arrays(astar_reservations *r) {
  const astar_allocator a = r->alloc;
  astar__free(&a, r->slot, (size_t)r->nslots * sizeof *r->slot);
  astar__free(&a, r->spare, (size_t)r->nslots * sizeof *r->spare);
  astar__free(&a, r, sizeof *r);
}

astar_status astar_reservations_new(astar_reservations **out, size_t capacity,
                                    const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (capacity == 0 || capacity > MAX_CAPACITY) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_reservations *r = astar__calloc(&a, 1, sizeof *r);
  if (!r) return ASTAR_NO_MEMORY;
  r->alloc = a;
  r->capacity = capacity;
  uint32_t bits = 1;
  while (((size_t)1 << bits) < 2 * capacity) bits++;
  r->nslots = (uint32_t)1 << bits;
  r->shift = 64 - bits;
  r->gen = 1;
  /* Zeroed by hand, not calloc: touched now, not by the first reservations. */
  const size_t bytes = (size_t)r->nslots * sizeof *r->slot;
  r->slot = astar__malloc(&a, bytes);
  r->spare = r->slot ? astar__malloc(&a, bytes) : NULL;
  if (r->spare) {
    memset(r->slot, 0, bytes);
    memset(r->spare, 0, bytes);
  }
  if (!r->spare) {
    free_arrays(r);
    return ASTAR_NO_MEMORY;
  }
  *out = r;
  return ASTAR_OK;
}

void astar_reservations_free(astar_reservations *res) {
  if (res) free_arrays(res);
}

/* A new generation for `slots`; the rare wrap clears both arrays. */
static void next_gen(astar_reservations *r) {
  if (r->gen == UINT32_MAX - 1) {
    memset(r->slot, 0, (size_t)r->nslots * sizeof *r->slot);
    memset(r->spare, 0, (size_t)r->nslots * sizeof *r->spare);
    r->gen = 1;
  } else {
    r->gen++;
  }
}

void astar_reservations_clear(astar_reservations *res) {
  if (!res) return;
  next_gen(res);
  res->count = 0;
  res->max_t = 0;
}

size_t astar_reservations_count(const astar_reservations *res) {
  return res ? res->count : 0;
}

size_t astar_reservations_capacity(const astar_reservations *res) {
  return res ? res->capacity : 0;
}

size_t astar_reservations_memory(const astar_reservations *res) {
  return res ? sizeof *res + 2 * (size_t)res->nslots * sizeof(astar__rsv) : 0;
}

/* The slot of key (cell, kind, t) if present, else the empty slot where it
** would go. */
static astar__rsv *slot_of(astar_reservations *r, uint32_t cell, uint32_t kind, uint32_t t) {
  const uint32_t mask = r->nslots - 1;
  const uint32_t key_t = kind == ASTAR__RSV_HOLD ? 0 : t;
  for (uint32_t i = astar__rsv_hash(r, cell, kind, key_t);; i = (i + 1) & mask) {
    astar__rsv *s = &r->slot[i];
    if (s->gen != r->gen) return s;
    if (s->cell == cell && s->kind == kind && (kind == ASTAR__RSV_HOLD || s->t == t)) return s;
  }
}

/* Direction number of the step a -> b (adjacent or equal cells): 0..7, or
** 8 for no move, -1 when not adjacent. */
static int step_dir(astar_point a, astar_point b) {
  const int32_t dx = b.x - a.x, dy = b.y - a.y;
  if (dx == 0 && dy == 0) return 8;
  for (int d = 0; d < 8; d++)
    if (astar__dir_dx[d] == dx && astar__dir_dy[d] == dy) return d;
  return -1;
}

/* One pass over a path's reservations: with write false, check them and
** count those not yet held (*fresh); with write true, store them. */
static astar_status path_pass(astar_reservations *r, uint32_t agent, const astar_point *path,
                              size_t n, uint32_t t0, uint32_t hold, bool write, size_t *fresh) {
  size_t added = 0;
#define TOUCH(cell_, kind_, t_)                                                                    \
  do {                                                                                             \
    astar__rsv *s_ = slot_of(r, (cell_), (kind_), (t_));                                           \
    if (s_->gen == r->gen) {                                                                       \
      if (s_->agent != agent) return ASTAR_INVALID_ARGUMENT;                                       \
      if (write) s_->t = (t_);                                                                     \
    } else {                                                                                       \
      added++;                                                                                     \
      if (write) {                                                                                 \
        *s_ = (astar__rsv){r->gen, (cell_), (t_), agent, (kind_)};                                 \
        r->count++;                                                                                \
      }                                                                                            \
    }                                                                                              \
  } while (0)
  const uint32_t last_t = t0 + (uint32_t)(n - 1);
  for (size_t k = 0; k < n; k++) {
    const uint32_t c = astar__rsv_pack(path[k].x, path[k].y), t = t0 + (uint32_t)k;
    /* A goal another agent holds for ever from a time <= t is taken too. */
    uint32_t from = 0;
    const uint32_t h = astar__rsv_find(r, c, ASTAR__RSV_HOLD, 0, &from);
    if (h != ASTAR_AGENT_NONE && h != agent && from <= t) return ASTAR_INVALID_ARGUMENT;
    TOUCH(c, ASTAR__RSV_VERTEX, t);
    if (write && t > r->max_t) r->max_t = t;
    if (k + 1 < n) {
      const int d = step_dir(path[k], path[k + 1]);
      if (d < 8) TOUCH(c, (uint32_t)(ASTAR__RSV_MOVE + d), t);
    }
  }
  const uint32_t g = astar__rsv_pack(path[n - 1].x, path[n - 1].y);
  if (hold == ASTAR_HOLD_FOREVER) {
    /* Nobody else may be there later either. */
    if (!write)
      for (uint32_t t = last_t + 1; t <= r->max_t; t++) {
        const uint32_t a = astar__rsv_find(r, g, ASTAR__RSV_VERTEX, t, NULL);
        if (a != ASTAR_AGENT_NONE && a != agent) return ASTAR_INVALID_ARGUMENT;
      }
    astar__rsv *s = slot_of(r, g, ASTAR__RSV_HOLD, 0);
    if (s->gen == r->gen) {
      if (s->agent != agent) return ASTAR_INVALID_ARGUMENT;
      if (write && last_t < s->t) s->t = last_t;
    } else {
      added++;
      if (write) {
        *s = (astar__rsv){r->gen, g, last_t, agent, ASTAR__RSV_HOLD};
        r->count++;
      }
    }
  } else {
    for (uint32_t k = 1; k <= hold; k++) {
      const uint32_t t = last_t + k;
      uint32_t from = 0;
      const uint32_t h = astar__rsv_find(r, g, ASTAR__RSV_HOLD, 0, &from);
      if (h != ASTAR_AGENT_NONE && h != agent && from <= t) return ASTAR_INVALID_ARGUMENT;
      TOUCH(g, ASTAR__RSV_VERTEX, t);
      if (write && t > r->max_t) r->max_t = t;
    }
  }
#undef TOUCH
  *fresh = added;
  return ASTAR_OK;
}

astar_status astar_reservations_reserve_path(astar_reservations *res, uint32_t agent,
                                             const astar_point *path, size_t n, uint32_t t0,
                                             uint32_t hold) {
  if (!res || !path || n == 0 || agent == ASTAR_AGENT_NONE) return ASTAR_INVALID_ARGUMENT;
  if (n - 1 > ASTAR_TIME_MAX || t0 > ASTAR_TIME_MAX - (uint32_t)(n - 1))
    return ASTAR_INVALID_ARGUMENT;
  const uint32_t last_t = t0 + (uint32_t)(n - 1);
  if (hold != ASTAR_HOLD_FOREVER && hold > ASTAR_TIME_MAX - last_t) return ASTAR_INVALID_ARGUMENT;
  for (size_t k = 0; k < n; k++) {
    if (path[k].x < 0 || path[k].y < 0 || path[k].x >= ASTAR_GRID_MAX_SIDE ||
        path[k].y >= ASTAR_GRID_MAX_SIDE)
      return ASTAR_INVALID_ARGUMENT;
    if (k > 0 && step_dir(path[k - 1], path[k]) < 0) return ASTAR_INVALID_ARGUMENT;
  }
  size_t fresh = 0;
  astar_status st = path_pass(res, agent, path, n, t0, hold, false, &fresh);
  if (st != ASTAR_OK) return st;
  if (fresh > res->capacity - res->count) return ASTAR_CAPACITY;
  return path_pass(res, agent, path, n, t0, hold, true, &fresh);
}

uint32_t astar_reservations_at(const astar_reservations *res, astar_point cell, uint32_t t) {
  if (!res || cell.x < 0 || cell.y < 0 || cell.x >= ASTAR_GRID_MAX_SIDE ||
      cell.y >= ASTAR_GRID_MAX_SIDE)
    return ASTAR_AGENT_NONE;
  const uint32_t c = astar__rsv_pack(cell.x, cell.y);
  const uint32_t a = astar__rsv_find(res, c, ASTAR__RSV_VERTEX, t, NULL);
  if (a != ASTAR_AGENT_NONE) return a;
  uint32_t from = 0;
  const uint32_t h = astar__rsv_find(res, c, ASTAR__RSV_HOLD, 0, &from);
  return h != ASTAR_AGENT_NONE && from <= t ? h : ASTAR_AGENT_NONE;
}

uint32_t astar_reservations_move(const astar_reservations *res, astar_point from, astar_point to,
                                 uint32_t t) {
  if (!res || from.x < 0 || from.y < 0 || from.x >= ASTAR_GRID_MAX_SIDE ||
      from.y >= ASTAR_GRID_MAX_SIDE)
    return ASTAR_AGENT_NONE;
  const int d = step_dir(from, to);
  if (d < 0 || d == 8) return ASTAR_AGENT_NONE;
  return astar__rsv_find(res, astar__rsv_pack(from.x, from.y), (uint32_t)(ASTAR__RSV_MOVE + d), t,
                         NULL);
}

void astar_reservations_release(astar_reservations *res, uint32_t agent, uint32_t before) {
  if (!res) return;
  astar__rsv *old = res->slot;
  const uint32_t old_gen = res->gen;
  /* Rebuild into the spare array under a fresh generation. */
  res->slot = res->spare;
  res->spare = old;
  if (old_gen == UINT32_MAX - 1) {
    memset(res->slot, 0, (size_t)res->nslots * sizeof *res->slot);
    res->gen = 1;
  } else {
    res->gen = old_gen + 1;
  }
  res->count = 0;
  uint32_t max_t = 0;
  for (uint32_t i = 0; i < res->nslots; i++) {
    const astar__rsv *s = &old[i];
    if (s->gen != old_gen) continue;
    const bool mine = agent == ASTAR_AGENT_NONE || s->agent == agent;
    const bool past = s->kind == ASTAR__RSV_HOLD ? before == UINT32_MAX : s->t < before;
    if (mine && past) continue;
    astar__rsv *d = slot_of(res, s->cell, s->kind, s->t);
    *d = *s;
    d->gen = res->gen;
    res->count++;
    if (s->kind == ASTAR__RSV_VERTEX && s->t > max_t) max_t = s->t;
  }
  res->max_t = max_t;
  if (res->gen == 1) memset(res->spare, 0, (size_t)res->nslots * sizeof *res->spare);
}
