/*
** internal.h -- definitions shared by the library's source files: the
** allocator helpers, the grid's layout and the direction tables.
** Nothing here is public API.
*/
#ifndef ASTAR_INTERNAL_H
#define ASTAR_INTERNAL_H

#include "astar/astar.h"

#include <float.h>
#include <stddef.h>
#include <stdint.h>

/* Same path on every platform: double arithmetic rounds every operation to
** double. With excess precision (FLT_EVAL_METHOD 2: the x87 of 32-bit x86
** without SSE2) h and g round differently and equal-f ties break another
** way -- measured on the Moving AI queries. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != 1 &&                    \
    !defined(ASTAR_ALLOW_EXCESS_PRECISION)
#error                                                                                             \
    "libastar needs FLT_EVAL_METHOD 0: on 32-bit x86 build with -msse2 -mfpmath=sse (or define ASTAR_ALLOW_EXCESS_PRECISION to accept paths that differ from other platforms)"
#endif

/* ASTAR_NO_FORCE_INLINE leaves inlining to the compiler: the quick -O0
** fuzz build (fuzz/run.sh) defines it, as forced inlining makes the
** sanitizer-instrumented library three times as slow to compile there. */
#if defined(__GNUC__) && !defined(ASTAR_NO_FORCE_INLINE)
#define ASTAR__INLINE static inline __attribute__((always_inline))
#else
#define ASTAR__INLINE static inline
#endif
#if defined(__GNUC__)
#define ASTAR__LIKELY(x) __builtin_expect(!!(x), 1)
#define ASTAR__UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ASTAR__LIKELY(x) (x)
#define ASTAR__UNLIKELY(x) (x)
#endif

/* ---- allocation (alloc.c) -------------------------------------------- */

/* Copy `a` (NULL or a NULL fn: the malloc-based default) into `dst`. */
void astar__alloc_init(astar_allocator *dst, const astar_allocator *a);
/* n bytes, or NULL. n == 0 returns NULL. */
void *astar__malloc(const astar_allocator *a, size_t n);
/* n * size bytes, zeroed; NULL on overflow or failure. */
void *astar__calloc(const astar_allocator *a, size_t n, size_t size);
/* Release a block of `size` bytes (NULL allowed). */
void astar__free(const astar_allocator *a, void *p, size_t size);
/* *out = a * b; false on overflow. */
bool astar__mul(size_t a, size_t b, size_t *out);

/* ---- directions -------------------------------------------------------- */

/*
** Direction numbers, also the bit numbers in astar_grid.nb and the order in
** which a search generates neighbours: the four straight moves, then the
** four diagonals. ASTAR__OPPOSITE(d) is the reverse direction.
*/
enum {
  ASTAR__N = 0,
  ASTAR__E,
  ASTAR__S,
  ASTAR__W, /* straight */
  ASTAR__NE,
  ASTAR__SE,
  ASTAR__SW,
  ASTAR__NW /* diagonal */
};
#define ASTAR__OPPOSITE(d) ((d) < 4 ? (((d) + 2) & 3) : (4 + ((((d)-4) + 2) & 3)))

extern const int8_t astar__dir_dx[8]; /* column step of each direction */
extern const int8_t astar__dir_dy[8]; /* row step of each direction */

/* Legal-move rules (core/moves.c): the index of a table mapping a
** neighbour byte to the mask of allowed directions. */
enum {
  ASTAR__RULE_STRAIGHT = 0, /* 4 moves */
  ASTAR__RULE_NO_CUT,       /* diagonals need both side cells free */
  ASTAR__RULE_ALWAYS,       /* diagonals whatever the side cells */
  ASTAR__RULE_ONE_SIDE,     /* diagonals need one side cell free */
  ASTAR__RULE_COUNT
};
/* Is the move in direction d allowed under `rule` from a cell whose
** neighbour byte is nb? */
bool astar__move_allowed(int rule, unsigned nb, int d);
/* table[nb] = the directions (bit d) allowed under `rule` from a cell whose
** neighbour byte is nb: what a search looks up instead of the rule. */
void astar__move_table(int rule, uint8_t table[256]);

/* ---- the grid (grid.c) ------------------------------------------------- */

/*
** Cells are stored row-major with a one-cell blocked border, so a neighbour
** index never needs a bounds check: cell (x, y) lives at index
** (y + 1) * stride + (x + 1). Besides its own passability every cell keeps
** a byte saying which of its eight neighbours are passable (nb); with it a
** search learns all legal moves from one byte and one table lookup.
*/
struct astar_grid {
  astar_allocator alloc;  /* where every block below came from */
  int32_t width;          /* columns, 1 .. ASTAR_GRID_MAX_SIDE */
  int32_t height;         /* rows, 1 .. ASTAR_GRID_MAX_SIDE */
  int32_t stride;         /* width + 2: padded row length */
  uint32_t ncells;        /* stride * (height + 2): padded cell count */
  uint8_t *pass;          /* [ncells] 1 passable, 0 blocked; border always 0 */
  uint8_t *nb;            /* [ncells] bit d: the neighbour in direction d is passable */
  uint64_t *rbits;        /* [(height+2) * rwords] passability bits by row (bit x = padded x) */
  uint64_t *cbits;        /* [(width+2) * cwords] the same by column (bit y = padded y) */
  uint32_t rwords;        /* words a row: covers stride bits plus one spare zero word */
  uint32_t cwords;        /* words a column: covers height+2 bits plus one spare zero word */
  uint64_t version;       /* +1 for every change of a cell's passability or terrain */
  astar_cell_change *log; /* [log_cap] ring: the change that made version v is log[v % log_cap];
                             NULL when changes are not tracked */
  size_t log_cap;         /* entries of log (0: not tracked) */
  uint64_t log_floor;     /* changes up to this version are not in the log (made before
                             tracking began, or by a whole-grid operation) */
  float *terrain;         /* [ncells] entry cost factor, or NULL: every factor is 1 */
  float min_terrain;      /* smallest factor over all cells (1 without a layer) */
  uint32_t min_count;     /* interior cells whose factor equals min_terrain */
};

/* A change to the whole grid at once (fill, terrain layer dropped, a
** rewrite by a derived object): advances the version and marks the log
** as not reaching back past it, so change readers get ASTAR_STALE. */
void astar__grid_touch_all(astar_grid *g);

/* Checksum of the grid's passability, the fingerprint that files built
** for one map (JPS+, CPD) carry: the dimensions, then per row (top to
** bottom) the cells' bits in 64-column words (bit i = column 64k + i,
** 1 = passable), folded with astar__hash_word (core/bytes.h). */
uint64_t astar__grid_cells_checksum(const astar_grid *g);

/* Whether the change log holds every change made after version `since`
** (<= g->version): tracked, not overwritten since, no whole-grid operation
** after it. The one rule of every reader of the ring (astar_grid_changes,
** the watch index, HPA*'s sync). */
ASTAR__INLINE bool astar__grid_log_covers(const astar_grid *g, uint64_t since) {
  const uint64_t n = g->version - since;
  return n == 0 || (g->log && since >= g->log_floor && n <= g->log_cap);
}

/* The change that made version v, which the log covers. */
ASTAR__INLINE const astar_cell_change *astar__grid_change(const astar_grid *g, uint64_t v) {
  return &g->log[v % g->log_cap];
}

/* Padded index of (x, y); the caller has checked bounds. */
ASTAR__INLINE uint32_t astar__index(const astar_grid *g, int32_t x, int32_t y) {
  return (uint32_t)(y + 1) * (uint32_t)g->stride + (uint32_t)(x + 1);
}

/* ---- search node records (search.c, heap.h) ----------------------------- */

/*
** Per-cell search state lives in two arrays. mark[] (2 bytes a cell, dense,
** so the common "already closed?" test stays in cache) says whether the cell
** was reached in the current search and whether it is closed: mark == gen
** means open, gen | 1 closed, anything else "not reached" -- so starting a
** search never clears memory. node[] holds the rest, valid only when the
** mark is current.
*/
typedef struct astar__node {
  double g;        /* best known cost from the start */
  uint32_t pos;    /* heap position while open */
  uint32_t parent; /* predecessor on the best known path, or ASTAR__NO_PARENT */
} astar__node;
#define ASTAR__NO_PARENT UINT32_MAX
#define ASTAR__IN_SLOT UINT32_MAX /* pos of the open node kept outside the heap */

/*
** The 64 passability bits of a padded row starting at padded column x (bit 0
** is column x); bits beyond the row read as 0 (blocked). Same for columns.
** The spare word at the end of every row / column keeps the reads in bounds.
*/
ASTAR__INLINE uint64_t astar__bits_at(const uint64_t *line, uint32_t x) {
  const uint32_t w = x >> 6, b = x & 63;
  const uint64_t lo = line[w] >> b;
  return b ? lo | line[w + 1] << (64 - b) : lo;
}
ASTAR__INLINE const uint64_t *astar__row(const astar_grid *g, uint32_t padded_y) {
  return g->rbits + (size_t)padded_y * g->rwords;
}
ASTAR__INLINE const uint64_t *astar__col(const astar_grid *g, uint32_t padded_x) {
  return g->cbits + (size_t)padded_x * g->cwords;
}

/* Bytes of the per-query workspace arrays for one padded cell. */
size_t astar__workspace_bytes_per_cell(void);

/* ---- searches decided without expanding anything (astar.c) --------------- */

/*
** What astar_find_path reports when it ends before searching (bad
** arguments, blocked endpoints...) or without a path: *result all zero but
** end = (-1, -1) (no cell reached) and cause = `cause`. result may be NULL
** (then nothing). Every entry point that answers for astar_find_path (the
** queue, fields, units bigger than one cell) uses it, so all agree.
*/
void astar__result_clear(astar_result *result, astar_status cause);

/*
** Can the A* search astar_find_path(ws, grid, opt, start, goal, path, cap,
** result) would run be answered without expanding a node -- it cannot
** start (bad options, blocked or outside endpoints, no turn states, stale
** or mismatched islands...), its start is its goal, or islands say its goal
** is unreachable? Then true, with *status, *result and path[0 .. cap-1]
** exactly as astar_find_path gives them (an observer in opt sees a trivial
** search's goal event). Otherwise false, nothing written. Reads ws (its
** capacities) but never changes it: a search in progress on ws goes on
** undisturbed. opt NULL: defaults. `validated`: opt was validated already
** (a finder's), so it is not again. No allocation.
*/
bool astar__search_settle(const astar_workspace *ws, const astar_grid *grid,
                          const astar_options *opt, astar_point start, astar_point goal,
                          astar_point *path, size_t cap, astar_result *result, astar_status *status,
                          bool validated);

#endif /* ASTAR_INTERNAL_H */
