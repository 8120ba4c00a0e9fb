/*
** dynamic/watch.c -- the watch index (astar/watch.h): for every cell, the
** registered paths that depend on it, so that an edit batch finds the
** affected paths in time proportional to the changes.
**
** Layout. Each watched cell of a path is one entry in a fixed pool. An
** entry sits on two lists at once: its cell's doubly linked list (head[]
** per cell; sync walks it, remove unlinks in O(1)) and its path's singly
** linked chain (remove walks it). Free entries are chained through the
** path link. A path's entries are its cells in order, then the side cells
** of its diagonal steps, flagged as such (they matter only when blocked).
**
** Sync reads the grid's change ring in place (no copy) from the index's
** version to the grid's; a path is reported once per sync by stamping it
** with the sync's epoch.
*/
#include "core/internal.h"

#include "astar/watch.h"

#include <string.h>

#define NONE UINT32_MAX
#define MAX_PATHS (UINT32_C(1) << 30)
#define SIDE_BIT 1u /* entry tag: path id << 1 | SIDE_BIT for a diagonal's side cell */

typedef struct entry {
  uint32_t tag;   /* path id << 1, | SIDE_BIT for a side cell */
  uint32_t cell;  /* y * width + x */
  uint32_t prev;  /* previous entry of the cell's list, NONE at its head */
  uint32_t next;  /* next entry of the cell's list, NONE at its end */
  uint32_t pnext; /* next entry of the same path (or of the free chain), NONE at the end */
} entry;

typedef struct path_slot {
  uint32_t first;     /* first entry of the path's chain; NONE when the slot is free */
  uint32_t count;     /* entries in the chain */
  uint32_t mark;      /* epoch of the last sync that reported it */
  uint32_t next_free; /* next free slot (free slots only) */
} path_slot;

struct astar_watch {
  astar_allocator alloc;  /* where the blocks below came from */
  const astar_grid *grid; /* the grid watched */
  int32_t width, height;  /* its dimensions */
  uint64_t version;       /* grid version the index has seen up to */
  uint32_t *head;         /* [width * height] first entry on the cell, NONE: none */
  entry *pool;            /* [max_cells] entries */
  size_t max_cells;       /* pool size */
  size_t used;            /* entries in use */
  uint32_t free_entry;    /* first free entry, NONE when the pool is full */
  path_slot *paths;       /* [max_paths] */
  uint32_t max_paths;     /* slots */
  uint32_t count;         /* registered paths */
  uint32_t free_path;     /* most recently freed slot, NONE: none */
  uint32_t unused;        /* slots never used are unused .. max_paths-1 */
  uint32_t epoch;         /* stamp of the current sync, >= 1 */
};

static size_t head_bytes(const astar_watch *w) {
  return (size_t)w->width * (size_t)w->height * sizeof(uint32_t);
}

void astar_watch_free(astar_watch *w) {
  if (!w) return;
  const astar_allocator a = w->alloc;
  astar__free(&a, w->head, head_bytes(w));
  astar__free(&a, w->pool, w->max_cells * sizeof(entry));
  astar__free(&a, w->paths, (size_t)w->max_paths * sizeof(path_slot));
  astar__free(&a, w, sizeof *w);
}

astar_status astar_watch_new(astar_watch **out, const astar_grid *grid, uint32_t max_paths,
                             size_t max_cells, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || max_paths == 0 || max_paths > MAX_PATHS || max_cells == 0 || max_cells >= NONE)
    return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_watch *w = astar__malloc(&a, sizeof *w);
  if (!w) return ASTAR_NO_MEMORY;
  memset(w, 0, sizeof *w);
  w->alloc = a;
  w->grid = grid;
  w->width = grid->width;
  w->height = grid->height;
  w->version = grid->version;
  w->max_cells = max_cells;
  w->max_paths = max_paths;
  w->head = astar__malloc(&a, head_bytes(w));
  w->pool = astar__malloc(&a, max_cells * sizeof(entry));
  w->paths = astar__malloc(&a, (size_t)max_paths * sizeof(path_slot));
  if (!w->head || !w->pool || !w->paths) {
    astar_watch_free(w);
    return ASTAR_NO_MEMORY;
  }
  memset(w->head, 0xff, head_bytes(w)); /* NONE everywhere */
  for (size_t i = 0; i < max_cells; i++)
    w->pool[i].pnext = i + 1 < max_cells ? (uint32_t)i + 1 : NONE;
  w->free_entry = 0;
  w->free_path = NONE;
  w->epoch = 1;
  *out = w;
  return ASTAR_OK;
}

/* ---- registering ------------------------------------------------------------------- */

/* Take a free entry for `cell` and put it at the head of the cell's list. */
static uint32_t link_entry(astar_watch *w, uint32_t tag, uint32_t cell) {
  const uint32_t i = w->free_entry;
  entry *e = &w->pool[i];
  w->free_entry = e->pnext;
  e->tag = tag;
  e->cell = cell;
  e->prev = NONE;
  e->next = w->head[cell];
  if (e->next != NONE) w->pool[e->next].prev = i;
  w->head[cell] = i;
  w->used++;
  return i;
}

static void unlink_chain(astar_watch *w, uint32_t first) {
  for (uint32_t i = first; i != NONE;) {
    entry *e = &w->pool[i];
    const uint32_t pnext = e->pnext;
    if (e->prev != NONE)
      w->pool[e->prev].next = e->next;
    else
      w->head[e->cell] = e->next;
    if (e->next != NONE) w->pool[e->next].prev = e->prev;
    e->pnext = w->free_entry;
    w->free_entry = i;
    w->used--;
    i = pnext;
  }
}

/* Check the path against the rules; *need = the entries it takes. */
static astar_status check_path(const astar_watch *w, const astar_options *o,
                               const astar_point *path, size_t len, size_t *need) {
  const bool sides = o->corner == ASTAR_CORNER_NO_CUT || o->corner == ASTAR_CORNER_ONE_SIDE;
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    const astar_point p = path[i];
    if (p.x < 0 || p.y < 0 || p.x >= w->width || p.y >= w->height) return ASTAR_OUT_OF_BOUNDS;
    n++;
    if (i == 0) continue;
    const int32_t dx = p.x - path[i - 1].x, dy = p.y - path[i - 1].y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1) return ASTAR_INVALID_ARGUMENT;
    if (dx != 0 && dy != 0) {
      if (o->moves == 4 || o->corner == ASTAR_CORNER_NEVER) return ASTAR_INVALID_ARGUMENT;
      if (sides) n += 2;
    }
  }
  *need = n;
  return ASTAR_OK;
}

/* Link path's entries for slot id (the caller checked room). */
static void link_path(astar_watch *w, uint32_t id, const astar_options *o, const astar_point *path,
                      size_t len) {
  const bool sides = o->corner == ASTAR_CORNER_NO_CUT || o->corner == ASTAR_CORNER_ONE_SIDE;
  const uint32_t width = (uint32_t)w->width;
  uint32_t first = NONE, last = NONE, count = 0;
#define APPEND(tag, x, y)                                                                          \
  do {                                                                                             \
    const uint32_t i_ = link_entry(w, (tag), (uint32_t)(y)*width + (uint32_t)(x));                 \
    w->pool[i_].pnext = NONE;                                                                      \
    if (last == NONE)                                                                              \
      first = i_;                                                                                  \
    else                                                                                           \
      w->pool[last].pnext = i_;                                                                    \
    last = i_;                                                                                     \
    count++;                                                                                       \
  } while (0)
  for (size_t i = 0; i < len; i++) APPEND(id << 1, path[i].x, path[i].y);
  if (sides)
    for (size_t i = 1; i < len; i++) {
      const astar_point a = path[i - 1], b = path[i];
      if (a.x != b.x && a.y != b.y) {
        APPEND(id << 1 | SIDE_BIT, b.x, a.y);
        APPEND(id << 1 | SIDE_BIT, a.x, b.y);
      }
    }
#undef APPEND
  w->paths[id].first = first;
  w->paths[id].count = count;
  w->paths[id].mark = 0;
}

static astar_status prepare(const astar_watch *w, const astar_options *opt, const astar_point *path,
                            size_t len, astar_options *o, size_t *need) {
  if (!path || len == 0) return ASTAR_INVALID_ARGUMENT;
  if (opt)
    *o = *opt;
  else
    astar_options_init(o);
  if (astar_options_validate(o) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  return check_path(w, o, path, len, need);
}

astar_status astar_watch_add(astar_watch *w, const astar_options *opt, const astar_point *path,
                             size_t len, astar_watch_id *id) {
  if (!w || !id) return ASTAR_INVALID_ARGUMENT;
  astar_options o;
  size_t need;
  const astar_status st = prepare(w, opt, path, len, &o, &need);
  if (st != ASTAR_OK) return st;
  if (w->count == w->max_paths || need > w->max_cells - w->used) return ASTAR_CAPACITY;
  uint32_t slot;
  if (w->free_path != NONE) {
    slot = w->free_path;
    w->free_path = w->paths[slot].next_free;
  } else {
    slot = w->unused++;
  }
  link_path(w, slot, &o, path, len);
  w->count++;
  *id = slot;
  return ASTAR_OK;
}

static bool registered(const astar_watch *w, astar_watch_id id) {
  return id < w->unused && w->paths[id].first != NONE;
}

astar_status astar_watch_remove(astar_watch *w, astar_watch_id id) {
  if (!w || !registered(w, id)) return ASTAR_INVALID_ARGUMENT;
  unlink_chain(w, w->paths[id].first);
  w->paths[id].first = NONE;
  w->paths[id].count = 0;
  w->paths[id].next_free = w->free_path;
  w->free_path = id;
  w->count--;
  return ASTAR_OK;
}

astar_status astar_watch_replace(astar_watch *w, astar_watch_id id, const astar_options *opt,
                                 const astar_point *path, size_t len) {
  if (!w || !registered(w, id)) return ASTAR_INVALID_ARGUMENT;
  astar_options o;
  size_t need;
  const astar_status st = prepare(w, opt, path, len, &o, &need);
  if (st != ASTAR_OK) return st;
  /* The old entries come back to the pool first. */
  if (need > w->max_cells - w->used + w->paths[id].count) return ASTAR_CAPACITY;
  unlink_chain(w, w->paths[id].first);
  link_path(w, id, &o, path, len);
  return ASTAR_OK;
}

/* ---- syncing ------------------------------------------------------------------------ */

/* Report every path affected by a change of `cell`: blocked (passable to
** blocked) affects paths through it and beside it, a terrain change only
** paths through it. */
static void report_cell(astar_watch *w, uint32_t cell, bool blocked, bool terrain,
                        astar_watch_id *ids, size_t cap, size_t *n) {
  for (uint32_t i = w->head[cell]; i != NONE; i = w->pool[i].next) {
    const uint32_t tag = w->pool[i].tag;
    if (!blocked && (!terrain || (tag & SIDE_BIT))) continue;
    path_slot *p = &w->paths[tag >> 1];
    if (p->mark == w->epoch) continue;
    p->mark = w->epoch;
    if (*n < cap) ids[*n] = tag >> 1;
    (*n)++;
  }
}

static void next_epoch(astar_watch *w) {
  if (++w->epoch == 0) { /* wrapped: old stamps could collide */
    for (uint32_t i = 0; i < w->unused; i++) w->paths[i].mark = 0;
    w->epoch = 1;
  }
}

astar_status astar_watch_sync(astar_watch *w, const astar_grid *grid, astar_watch_id *ids,
                              size_t cap, size_t *len) {
  if (!w || !grid || !len || (!ids && cap > 0)) return ASTAR_INVALID_ARGUMENT;
  if (grid != w->grid) return ASTAR_MISMATCH;
  const uint64_t since = w->version, n = grid->version - since;
  *len = 0;
  if (n == 0) return ASTAR_OK;
  if (!astar__grid_log_covers(grid, since)) {
    /* The changes are unknown: every path may be affected. */
    if (w->count > cap) {
      *len = w->count;
      return ASTAR_BUFFER_TOO_SMALL;
    }
    for (uint32_t i = 0; i < w->unused; i++)
      if (w->paths[i].first != NONE && *len < cap) ids[(*len)++] = i;
    w->version = grid->version;
    return ASTAR_STALE;
  }
  size_t found = 0;
  for (uint64_t v = since + 1; v <= grid->version; v++) {
    const astar_cell_change *c = astar__grid_change(grid, v);
    if (c->passable && c->old_terrain == c->new_terrain) continue; /* opened: breaks nothing */
    report_cell(w, (uint32_t)c->y * (uint32_t)w->width + (uint32_t)c->x,
                c->was_passable && !c->passable, c->old_terrain != c->new_terrain, ids, cap,
                &found);
  }
  next_epoch(w);
  *len = found;
  if (found > cap) return ASTAR_BUFFER_TOO_SMALL; /* the version stays: nothing consumed */
  w->version = grid->version;
  return ASTAR_OK;
}

uint32_t astar_watch_count(const astar_watch *w) {
  return w ? w->count : 0;
}

size_t astar_watch_cells_used(const astar_watch *w) {
  return w ? w->used : 0;
}

size_t astar_watch_memory(const astar_watch *w) {
  if (!w) return 0;
  return sizeof *w + head_bytes(w) + w->max_cells * sizeof(entry) +
         (size_t)w->max_paths * sizeof(path_slot);
}
