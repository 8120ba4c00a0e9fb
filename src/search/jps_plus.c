/*
** jps_plus.c -- JPS+ (Rabin, "JPS+: An Extreme A* Speed Optimization for
** Static Uniform Cost Grids", Game AI Pro 2, 2015): jump point search whose
** jumps are looked up instead of scanned, for 8 moves without corner cutting;
** and the precomputation's portable byte format.
**
** Movement model (the Moving AI rule): a diagonal move needs its target and
** both side cells passable. Under it, with straight <= diagonal < 2*straight:
**   - a diagonal move has no forced neighbours: every cell around it is
**     reached at least as cheaply through one of the two free side cells;
**   - a cell x entered by a straight move in direction t (from p = x - t) has
**     a forced neighbour on side a (a perpendicular to t) when x+a is free
**     and p+a is blocked: then x+a, and x+a+t when that diagonal is legal,
**     cannot be reached as cheaply without passing x. Such an x is a
**     "jump point for t".
** Precomputed per cell c and direction d (int16, 16 bytes a cell):
**   straight d: k > 0 if the first jump point for d along the ray from c is k
**               steps away (no wall before it), else -w where w is the
**               number of free steps before the first blocked cell;
**   diagonal d: k > 0 if, k legal diagonal steps away, the first cell is
**               reached from which a straight jump along one of d's two
**               components finds a jump point; else -w, w legal steps.
** A jump point is expanded only towards its natural and forced directions
** (a table indexed by the travel direction and the cell's neighbour byte).
** Diagonal jump points are not expanded at all (the pruning of Harabor &
** Grastien, "Improving Jump Point Search", ICAPS 2014): a diagonal ray is
** walked from one to the next through the table, and the jump points their
** straight jumps find are generated directly, by a diagonal run then a
** straight run from the node being expanded. This about halves the
** expansions and heap operations on the benchmark maps.
** The goal is found exactly by the target rule (the goal test at
** expansion, as in Warthog's jps2+): a straight ray towards the goal
** generates the goal when the run to it is free, through any jump points
** on the way; a diagonal ray that reaches the goal's row or column (the
** nearer one) generates the goal itself when the straight run from there
** is free, and otherwise walks on (the cell is then no jump point for the
** goal). Both read the distances along the run from jump point to jump
** point; nothing through the skipped jump points can be cheaper, as the
** route generated is the octile distance from the node.
** Every successor is one straight run, one diagonal run, or a diagonal run
** then a straight run from its parent: the shape astar__end fills in, each
** step legal (diagonal steps were checked when the table was built).
**
** Seeing the search. With options.observer a separate instantiation of
** the loop (obs == true, a compile-time constant) reports the jump points
** as nodes (PUSH, IMPROVE, EXPAND, GOAL with their g and h) and, before a
** successor is offered, the cells each looked-up jump covers as
** ASTAR_EVENT_SCAN: a straight ray from the node up to its jump point, the
** goal or the last free cell; a diagonal ray from the node, step by step;
** and the straight rays looked up at its diagonal jump points, with that
** diagonal cell as parent. (JPS+ reads one distance per ray; the events
** name the cells that distance stands for.) The plain loops are compiled
** as without the observer.
**
** Memory: 16 bytes per padded cell ((width+2) * (height+2) cells) plus a
** 2.3 KB table; the search allocates nothing.
*/
#include "core/bytes.h"
#include "core/loop.h"
#include "core/workspace.h"
#include "search/checked.h"
#include "search/query.h"

#define JPP_DIRS 8
#if defined(__GNUC__)
#define JPP_PREFETCH(p) __builtin_prefetch(p)
#else
#define JPP_PREFETCH(p) ((void)(p))
#endif
#define JPP_START 8 /* "travel direction" of the start node: every move */

/* Byte format (all integers little-endian):
**   0  magic "ASTARJP+"             8 bytes
**   8  format version (1)           u32
**  12  width, height                u32, u32
**  20  bytes per cell (16)          u32
**  24  checksum of the grid's cells u64 (astar__grid_cells_checksum)
**  32  checksum of the file         u64 (bytes 0..31, then the data)
**  40  data: for every cell, row-major, the 8 distances as int16 in the
**      direction order N E S W NE SE SW NW.  */
static const uint8_t jpp_magic[8] = {'A', 'S', 'T', 'A', 'R', 'J', 'P', '+'}; /* no NUL */
#define JPP_FORMAT 1u
#define JPP_HEADER 40u
#define JPP_CELL_BYTES 16u

struct astar_jps_plus {
  astar_allocator alloc;
  const astar_grid *grid; /* identity of the grid it belongs to; never read */
  uint64_t version;       /* astar_grid_version() when built or loaded */
  int32_t width, height, stride;
  uint32_t ncells;                 /* padded cells */
  uint64_t cells_sum;              /* astar__grid_cells_checksum of the grid */
  int16_t *dist;                   /* [ncells * 8], padded index * 8 + direction */
  uint8_t succ[JPP_DIRS + 1][256]; /* directions to scan: [travel dir][nb];
                                      [JPP_START][nb]: every legal move */
  uint8_t jp[256];                 /* bit t: a jump point for straight travel t */
};

/* ---- directions ----------------------------------------------------------- */

/* The diagonal between two perpendicular straight directions. */
static int diag_of(int a, int b) {
  const int dx = astar__dir_dx[a] + astar__dir_dx[b], dy = astar__dir_dy[a] + astar__dir_dy[b];
  for (int d = 4; d < 8; d++)
    if (astar__dir_dx[d] == dx && astar__dir_dy[d] == dy) return d;
  return -1; /* not reached for perpendicular a, b */
}

/* The straight components of diagonal direction d: its row move (N or S)
** and its column move (E or W). */
static int vertical_of(int d) {
  return astar__dir_dy[d] < 0 ? ASTAR__N : ASTAR__S;
}

static int horizontal_of(int d) {
  return astar__dir_dx[d] > 0 ? ASTAR__E : ASTAR__W;
}

static bool has(unsigned nb, int d) {
  return (nb >> d) & 1u;
}

/* Is the move in direction d legal from a cell with neighbour byte nb? */
static bool legal(unsigned nb, int d) {
  if (d < 4) return has(nb, d);
  const int a = vertical_of(d);
  const int b = horizontal_of(d);
  return has(nb, d) && has(nb, a) && has(nb, b);
}

/* Has a cell entered by a straight move in direction t a forced neighbour
** on side a? (p + a blocked, x + a free, p = x - t.) */
static bool forced(unsigned nb, int t, int a) {
  return has(nb, a) && !has(nb, diag_of(a, ASTAR__OPPOSITE(t)));
}

/* Is a cell with neighbour byte nb a jump point for straight travel t? */
static bool jump_point(unsigned nb, int t) {
  return forced(nb, t, (t + 1) & 3) || forced(nb, t, (t + 3) & 3);
}

/* The object's tables indexed by a neighbour byte. */
static void build_tables(astar_jps_plus *pre) {
  uint8_t(*succ)[256] = pre->succ;
  for (unsigned nb = 0; nb < 256; nb++) {
    unsigned jp = 0;
    for (int t = 0; t < 4; t++) jp |= (unsigned)jump_point(nb, t) << t;
    pre->jp[nb] = (uint8_t)jp;
    for (int t = 0; t <= JPP_DIRS; t++) {
      unsigned m = 0;
      if (t == JPP_START) {
        for (int d = 0; d < 8; d++) m |= (unsigned)legal(nb, d) << d;
      } else if (t < 4) {
        m |= (unsigned)legal(nb, t) << t;
        for (int k = 1; k <= 3; k += 2) {
          const int a = (t + k) & 3;
          if (!forced(nb, t, a)) continue;
          m |= 1u << a;
          m |= (unsigned)legal(nb, diag_of(a, t)) << diag_of(a, t);
        }
      } else {
        const int a = vertical_of(t);
        const int b = horizontal_of(t);
        m = (unsigned)legal(nb, t) << t | (unsigned)legal(nb, a) << a | (unsigned)legal(nb, b) << b;
      }
      succ[t][nb] = (uint8_t)m;
    }
  }
}

/* ---- precomputation ------------------------------------------------------- */

/*
** The distance of cell c in direction d from those of the next cell n on
** the ray: 0 when the move is illegal; 1 when n stops the ray (a jump point
** for straight d; for diagonal d, a cell whose straight jump along one of
** d's components ends at a jump point); else one step more than n's, keeping
** n's sign. Building and loading both use it, so a loaded table is checked
** against exactly the rule that built it. int32 so that a corrupted input
** cannot overflow.
*/
ASTAR__INLINE int32_t entry(const astar_jps_plus *pre, const int16_t *dist, const astar_grid *g,
                            uint32_t c, const int d) {
  const unsigned nb = g->nb[c];
  if (!g->pass[c] || !((pre->succ[JPP_START][nb] >> d) & 1u)) return 0;
  const uint32_t n = (uint32_t)((int32_t)c + astar__dir_dy[d] * g->stride + astar__dir_dx[d]);
  const int16_t *dn = dist + (size_t)n * JPP_DIRS;
  bool stop;
  if (d < 4) {
    stop = (pre->jp[g->nb[n]] >> d) & 1u;
  } else {
    const int a = vertical_of(d);
    const int b = horizontal_of(d);
    stop = dn[a] > 0 || dn[b] > 0;
  }
  if (stop) return 1;
  return dn[d] > 0 ? dn[d] + 1 : dn[d] - 1;
}

/* Fill the table of grid g (border entries stay 0). Every entry depends on
** the next cell along its ray, so each direction is swept from the far end:
** rows top to bottom for W, E (within the row) and N, NE, NW (one row up);
** then bottom to top for S, SE, SW. */
static void compute(const astar_jps_plus *pre, int16_t *dist, const astar_grid *g) {
  const int32_t s = g->stride, w = g->width, h = g->height;
  memset(dist, 0, (size_t)g->ncells * JPP_DIRS * sizeof *dist);
  for (int32_t y = 1; y <= h; y++) {
    const uint32_t row = (uint32_t)(y * s);
    for (int32_t x = 1; x <= w; x++) {
      const uint32_t c = row + (uint32_t)x;
      dist[(size_t)c * 8 + ASTAR__W] = (int16_t)entry(pre, dist, g, c, ASTAR__W);
    }
    for (int32_t x = w; x >= 1; x--) {
      const uint32_t c = row + (uint32_t)x;
      dist[(size_t)c * 8 + ASTAR__E] = (int16_t)entry(pre, dist, g, c, ASTAR__E);
    }
    for (int32_t x = 1; x <= w; x++) {
      const uint32_t c = row + (uint32_t)x;
      dist[(size_t)c * 8 + ASTAR__N] = (int16_t)entry(pre, dist, g, c, ASTAR__N);
      dist[(size_t)c * 8 + ASTAR__NE] = (int16_t)entry(pre, dist, g, c, ASTAR__NE);
      dist[(size_t)c * 8 + ASTAR__NW] = (int16_t)entry(pre, dist, g, c, ASTAR__NW);
    }
  }
  for (int32_t y = h; y >= 1; y--) {
    const uint32_t row = (uint32_t)(y * s);
    for (int32_t x = 1; x <= w; x++) {
      const uint32_t c = row + (uint32_t)x;
      dist[(size_t)c * 8 + ASTAR__S] = (int16_t)entry(pre, dist, g, c, ASTAR__S);
      dist[(size_t)c * 8 + ASTAR__SE] = (int16_t)entry(pre, dist, g, c, ASTAR__SE);
      dist[(size_t)c * 8 + ASTAR__SW] = (int16_t)entry(pre, dist, g, c, ASTAR__SW);
    }
  }
}

/* Does every entry obey its rule? Then, by induction from the end of each
** ray, the table is exactly what compute() makes for g. As costly as a
** build: astar_jps_plus_verify, on request. */
static bool verify(const astar_jps_plus *pre, const astar_grid *g) {
  const int16_t *const dist = pre->dist;
  bool ok = true;
  for (int32_t y = 1; y <= g->height; y++)
    for (int32_t x = 1; x <= g->width; x++) {
      const uint32_t c = (uint32_t)(y * g->stride + x);
      const int16_t *dc = dist + (size_t)c * JPP_DIRS;
      /* Unrolled so that each direction's rule is specialised. */
      ok &= dc[0] == entry(pre, dist, g, c, 0);
      ok &= dc[1] == entry(pre, dist, g, c, 1);
      ok &= dc[2] == entry(pre, dist, g, c, 2);
      ok &= dc[3] == entry(pre, dist, g, c, 3);
      ok &= dc[4] == entry(pre, dist, g, c, 4);
      ok &= dc[5] == entry(pre, dist, g, c, 5);
      ok &= dc[6] == entry(pre, dist, g, c, 6);
      ok &= dc[7] == entry(pre, dist, g, c, 7);
    }
  return ok;
}

/*
** Does every jump stay inside the grid? That is what the search needs to
** be memory-safe on any table: a jump of |v| cells from an interior cell
** lands on an interior cell, so every later read is in bounds too (the
** search only reads the cells jumps land on, and cells on the straight or
** diagonal segment between two such cells, which the grid's rectangle
** contains). One pass of integer compares, cheap next to verify().
*/
static bool in_bounds(const astar_jps_plus *pre, const astar_grid *g) {
  const int16_t *const dist = pre->dist;
  const int32_t w = g->width, h = g->height;
  int32_t bad = 0;
  for (int32_t y = 1; y <= h; y++) {
    const int16_t *dc = dist + ((size_t)y * (size_t)g->stride + 1) * JPP_DIRS;
    for (int32_t x = 1; x <= w; x++, dc += JPP_DIRS) {
      int32_t a[JPP_DIRS];
      for (int d = 0; d < JPP_DIRS; d++) a[d] = dc[d] < 0 ? -(int32_t)dc[d] : dc[d];
      /* Room left in each direction: N y-1, E w-x, S h-y, W x-1. */
      const int32_t rn = y - 1, re = w - x, rs = h - y, rw = x - 1;
      bad |= (a[ASTAR__N] > rn) | (a[ASTAR__E] > re) | (a[ASTAR__S] > rs) | (a[ASTAR__W] > rw);
      bad |= (a[ASTAR__NE] > (rn < re ? rn : re)) | (a[ASTAR__SE] > (rs < re ? rs : re));
      bad |= (a[ASTAR__SW] > (rs < rw ? rs : rw)) | (a[ASTAR__NW] > (rn < rw ? rn : rw));
    }
  }
  return !bad;
}

static size_t dist_bytes(uint32_t ncells) {
  return (size_t)ncells * JPP_DIRS * sizeof(int16_t);
}

/* ---- checksums and the byte format ----------------------------------------------- */

/* Bytes of the serialised form (dimensions already within the limits). */
static uint64_t saved_size(int32_t w, int32_t h) {
  return JPP_HEADER + (uint64_t)w * (uint64_t)h * JPP_CELL_BYTES;
}

/* Checksum of the header's first 32 bytes and of the data, 8 bytes a word
** (a cell is two words). */
static uint64_t file_checksum(const uint8_t *buf, size_t len) {
  uint64_t h = ASTAR__HASH_INIT;
  for (size_t i = 0; i < 32; i += 8) h = astar__hash_word(h, astar__get_le64(buf + i));
  for (size_t i = JPP_HEADER; i + 8 <= len; i += 8)
    h = astar__hash_word(h, astar__get_le64(buf + i));
  return h;
}

/* ---- objects ------------------------------------------------------------------------- */

/* A new object for `grid` with its table allocated but not filled. */
static astar_status alloc_pre(astar_jps_plus **out, const astar_grid *grid,
                              const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_jps_plus *pre = astar__malloc(&a, sizeof *pre);
  if (!pre) return ASTAR_NO_MEMORY;
  memset(pre, 0, sizeof *pre);
  /* A 32-bit size_t cannot hold every legal grid's table. */
  size_t bytes;
  pre->dist = astar__mul(grid->ncells, JPP_DIRS * sizeof(int16_t), &bytes)
                  ? astar__malloc(&a, bytes)
                  : NULL;
  if (!pre->dist) {
    astar__free(&a, pre, sizeof *pre);
    return ASTAR_NO_MEMORY;
  }
  pre->alloc = a;
  pre->grid = grid;
  pre->version = grid->version;
  pre->width = grid->width;
  pre->height = grid->height;
  pre->stride = grid->stride;
  pre->ncells = grid->ncells;
  build_tables(pre);
  *out = pre;
  return ASTAR_OK;
}

astar_status astar_jps_plus_new(astar_jps_plus **out, const astar_grid *grid,
                                const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  if (grid->terrain) return ASTAR_UNSUPPORTED;
  astar_jps_plus *pre;
  const astar_status st = alloc_pre(&pre, grid, alloc);
  if (st != ASTAR_OK) return st;
  compute(pre, pre->dist, grid);
  pre->cells_sum = astar__grid_cells_checksum(grid);
  *out = pre;
  return ASTAR_OK;
}

void astar_jps_plus_free(astar_jps_plus *pre) {
  if (!pre) return;
  const astar_allocator a = pre->alloc;
  astar__free(&a, pre->dist, dist_bytes(pre->ncells));
  astar__free(&a, pre, sizeof *pre);
}

size_t astar_jps_plus_memory(const astar_jps_plus *pre) {
  return pre ? sizeof *pre + dist_bytes(pre->ncells) : 0;
}

astar_status astar_jps_plus_save(const astar_jps_plus *pre, void *buf, size_t cap, size_t *len) {
  if (!pre || !len) return ASTAR_INVALID_ARGUMENT;
  /* Fits a size_t: it is smaller than the table already in memory. */
  const size_t need = (size_t)saved_size(pre->width, pre->height);
  *len = need;
  if (!buf || cap < need) return ASTAR_BUFFER_TOO_SMALL;
  uint8_t *p = buf;
  memcpy(p, jpp_magic, sizeof jpp_magic);
  astar__put_le32(p + 8, JPP_FORMAT);
  astar__put_le32(p + 12, (uint32_t)pre->width);
  astar__put_le32(p + 16, (uint32_t)pre->height);
  astar__put_le32(p + 20, JPP_CELL_BYTES);
  astar__put_le64(p + 24, pre->cells_sum);
  uint8_t *q = p + JPP_HEADER;
  for (int32_t y = 1; y <= pre->height; y++) {
    const int16_t *row = pre->dist + (size_t)y * (size_t)pre->stride * JPP_DIRS;
    if (ASTAR__LITTLE_ENDIAN) { /* the row's interior cells are contiguous */
      memcpy(q, row + JPP_DIRS, (size_t)pre->width * JPP_CELL_BYTES);
      q += (size_t)pre->width * JPP_CELL_BYTES;
      continue;
    }
    for (int32_t x = 1; x <= pre->width; x++)
      for (int d = 0; d < JPP_DIRS; d++) {
        const uint16_t v = (uint16_t)row[x * JPP_DIRS + d];
        *q++ = (uint8_t)v;
        *q++ = (uint8_t)(v >> 8);
      }
  }
  astar__put_le64(p + 32, file_checksum(p, need));
  return ASTAR_OK;
}

astar_status astar_jps_plus_load(astar_jps_plus **out, const astar_grid *grid, const void *buf,
                                 size_t len, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || (!buf && len > 0)) return ASTAR_INVALID_ARGUMENT;
  if (grid->terrain) return ASTAR_UNSUPPORTED;
  /* Format first (ASTAR_PARSE_ERROR), then whether it fits this grid
  ** (ASTAR_MISMATCH). The whole-file checksum covers the header,
  ** so damage anywhere reads as malformed, not as "another grid". */
  const uint8_t *p = buf;
  if (len < JPP_HEADER || memcmp(p, jpp_magic, sizeof jpp_magic) != 0) return ASTAR_PARSE_ERROR;
  if (astar__get_le32(p + 8) != JPP_FORMAT || astar__get_le32(p + 20) != JPP_CELL_BYTES)
    return ASTAR_PARSE_ERROR;
  const uint32_t w = astar__get_le32(p + 12), h = astar__get_le32(p + 16);
  if (w < 1 || h < 1 || w > ASTAR_GRID_MAX_SIDE || h > ASTAR_GRID_MAX_SIDE ||
      (uint64_t)w * h > ASTAR_GRID_MAX_CELLS)
    return ASTAR_PARSE_ERROR;
  if ((uint64_t)len != saved_size((int32_t)w, (int32_t)h)) return ASTAR_PARSE_ERROR;
  if (astar__get_le64(p + 32) != file_checksum(p, len)) return ASTAR_PARSE_ERROR;
  if ((int32_t)w != grid->width || (int32_t)h != grid->height) return ASTAR_MISMATCH;
  const uint64_t sum = astar__grid_cells_checksum(grid);
  if (astar__get_le64(p + 24) != sum) return ASTAR_MISMATCH;

  astar_jps_plus *pre;
  const astar_status st = alloc_pre(&pre, grid, alloc);
  if (st != ASTAR_OK) return st;
  pre->cells_sum = sum;
  /* One write pass (each page first touched once, in order): the border
  ** cells, never jumped from, are zeroed as the rows are copied in. */
  const uint8_t *q = p + JPP_HEADER;
  const size_t row_len = (size_t)grid->stride * JPP_DIRS; /* int16_t a padded row */
  const size_t data_len = (size_t)grid->width * JPP_DIRS; /* int16_t of the cells */
  int16_t *const last = pre->dist + (size_t)(grid->height + 1) * row_len;
  memset(pre->dist, 0, row_len * sizeof *pre->dist);
  memset(last, 0, row_len * sizeof *pre->dist);
  for (int32_t y = 1; y <= grid->height; y++) {
    int16_t *row = pre->dist + (size_t)y * row_len;
    memset(row, 0, JPP_DIRS * sizeof *row);
    memset(row + JPP_DIRS + data_len, 0, (row_len - JPP_DIRS - data_len) * sizeof *row);
    if (ASTAR__LITTLE_ENDIAN) {
      memcpy(row + JPP_DIRS, q, (size_t)grid->width * JPP_CELL_BYTES);
      q += (size_t)grid->width * JPP_CELL_BYTES;
      continue;
    }
    for (int32_t x = 1; x <= grid->width; x++)
      for (int d = 0; d < JPP_DIRS; d++, q += 2) {
        const int32_t v = (int32_t)q[0] | (int32_t)q[1] << 8;
        row[x * JPP_DIRS + d] = (int16_t)(v >= 0x8000 ? v - 0x10000 : v);
      }
  }
  if (!in_bounds(pre, grid)) {
    astar_jps_plus_free(pre);
    return ASTAR_PARSE_ERROR;
  }
  *out = pre;
  return ASTAR_OK;
}

astar_status astar_jps_plus_verify(const astar_jps_plus *pre, const astar_grid *grid) {
  if (!pre || !grid) return ASTAR_INVALID_ARGUMENT;
  if (pre->grid != grid || pre->width != grid->width || pre->height != grid->height)
    return ASTAR_MISMATCH;
  if (pre->version != grid->version) return ASTAR_STALE;
  return verify(pre, grid) ? ASTAR_OK : ASTAR_PARSE_ERROR;
}

/* ---- search ------------------------------------------------------------------------------ */

/* Row of padded index i: a reciprocal multiply, corrected by one at most
** (cheaper than a division). */
ASTAR__INLINE int32_t row_of(uint32_t i, int32_t stride, double inv_stride) {
  int32_t y = (int32_t)((double)i * inv_stride);
  if (y * stride > (int32_t)i)
    y--;
  else if ((y + 1) * stride <= (int32_t)i)
    y++;
  return y;
}

/* Direction of the last run of a move by (dx, dy): the move is a diagonal
** run, a straight run, or a diagonal run then a straight run. */
ASTAR__INLINE int last_run(int32_t dx, int32_t dy) {
  const int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  if (ax > ay) return dx > 0 ? ASTAR__E : ASTAR__W;
  if (ay > ax) return dy > 0 ? ASTAR__S : ASTAR__N;
  if (dy < 0) return dx > 0 ? ASTAR__NE : ASTAR__NW;
  return dx > 0 ? ASTAR__SE : ASTAR__SW;
}

/* The open list and the running counters of one search. */
typedef struct jpp_state {
  astar__node *nd;
  uint16_t *mark;
  astar__heap *open;
  const int16_t *dist;
  uint16_t gen, closed;
  bool slot_full;
  astar__hent slot; /* as in astar.c: one open entry outside the heap */
  uint32_t seq;
  astar_stats stats; /* the search's running totals (core/loop.h) */
} jpp_state;

/* Offer cell s at padded (sx, sy) with cost ng through parent u (with obs,
** reported as ASTAR_EVENT_PUSH or ASTAR_EVENT_IMPROVE). */
ASTAR__INLINE void relax(jpp_state *S, const astar__query *q, const int tie, const bool obs,
                         uint32_t u, uint32_t s, int32_t sx, int32_t sy, double ng) {
  const uint16_t ms = S->mark[s];
  if (ms == S->closed) return;
  astar__node *const n = &S->nd[s];
  if (ms == S->gen && !(ng < n->g)) return;
  /* Nearly every generated jump point is expanded later: fetch its
  ** distances now, so that the expansion does not wait for memory. */
  JPP_PREFETCH(S->dist + (size_t)s * JPP_DIRS);
  const double h = astar__h(q, ASTAR__HK_OCTILE, sx, sy);
  n->g = ng;
  n->parent = u;
  const astar__hent e = astar__entry(ng + h, astar__tie_key_q(q, tie, ng, sx, sy, S->seq), s);
  S->seq++;
  if (obs)
    astar__emit(q, ms == S->gen ? ASTAR_EVENT_IMPROVE : ASTAR_EVENT_PUSH, s, u, ng, ng + h, 1);
  astar__heap *const open = S->open;
  if (ms == S->gen) {
    astar__count_improve(&S->stats);
    if (n->pos == ASTAR__IN_SLOT)
      S->slot = e;
    else
      astar__heap_decrease(open, S->nd, n->pos, e);
    return;
  }
  S->mark[s] = S->gen;
  astar__count_push(&S->stats);
  if (!open->len || astar__hless(&e, &open->a[0])) {
    if (!S->slot_full) {
      S->slot = e;
      S->slot_full = true;
      n->pos = ASTAR__IN_SLOT;
    } else if (astar__hless(&e, &S->slot)) {
      astar__heap_push(open, S->nd, S->slot);
      S->slot = e;
      n->pos = ASTAR__IN_SLOT;
    } else {
      astar__heap_push(open, S->nd, e);
    }
  } else {
    astar__heap_push(open, S->nd, e);
  }
  astar__count_open(&S->stats, open->len + S->slot_full);
}

/* The node being expanded, and where the goal lies from it. */
typedef struct jpp_node {
  uint32_t u;        /* padded index */
  int32_t ux, uy;    /* padded coordinates */
  double g;          /* its cost */
  const int16_t *du; /* its distances */
  int32_t rx, ry;    /* goal - node */
  int gdir;          /* the straight direction towards the goal, or -1 */
  int32_t galong;    /* steps to the goal along gdir */
} jpp_node;

/* Whether the straight run of `len` steps from padded cell c in direction
** d is free: the ray's distances are followed from jump point to jump point
** (jump points are no obstacle) until one covers the run or a wall ends
** it. A run of 0 steps is free. */
ASTAR__INLINE bool run_free(const int16_t *dist, const astar__query *q, uint32_t c, int d,
                            int32_t len) {
  for (;;) {
    const int32_t w = dist[(size_t)c * JPP_DIRS + (size_t)d];
    if (len <= (w < 0 ? -w : w)) return true;
    if (w <= 0) return false;
    c = (uint32_t)((int32_t)c + w * q->off[d]);
    len -= w;
  }
}

/* Straight direction d (a constant): the goal if the ray reaches it free
** (through any jump points before it: from x the straight line to the goal
** is the octile distance, so nothing through them can be cheaper), else
** the jump point the ray ends at, if any. */
ASTAR__INLINE void straight_run(jpp_state *S, const astar__query *q, const int tie, const bool obs,
                                const jpp_node *x, const int d) {
  const int32_t v = x->du[d];
  int32_t k;
  if (d == x->gdir && run_free(S->dist, q, x->u, d, x->galong))
    k = x->galong;
  else if (v > 0)
    k = v;
  else {
    if (obs)
      astar__emit_scan(q, x->u, astar__dir_dx[d], astar__dir_dy[d], -v, x->g, q->cost[ASTAR__N]);
    return;
  }
  if (obs)
    astar__emit_scan(q, x->u, astar__dir_dx[d], astar__dir_dy[d], k, x->g, q->cost[ASTAR__N]);
  relax(S, q, tie, obs, x->u, (uint32_t)((int32_t)x->u + k * q->off[d]),
        x->ux + k * astar__dir_dx[d], x->uy + k * astar__dir_dy[d],
        x->g + (double)k * q->cost[ASTAR__N]);
}

/* With the observer: the n diagonal steps kd+1 .. kd+n of the ray from x in
** direction d, each a scanned cell with x as parent. */
static void emit_diagonal(const astar__query *q, const jpp_node *x, int d, int32_t kd, int32_t n) {
  const int32_t ddx = astar__dir_dx[d], ddy = astar__dir_dy[d];
  for (int32_t k = kd + 1; k <= kd + n; k++) {
    const int32_t cx = x->ux + k * ddx, cy = x->uy + k * ddy;
    const double g = x->g + (double)k * q->cost[ASTAR__NE];
    astar__emit(q, ASTAR_EVENT_SCAN, (uint32_t)((int32_t)x->u + k * q->off[d]), x->u, g,
                g + astar__h(q, ASTAR__HK_OCTILE, cx, cy), 1);
  }
}

/*
** Diagonal direction d (a constant): walk the ray from one diagonal jump
** point to the next without expanding them (Harabor & Grastien 2014): the
** jump points their straight jumps find are generated from the node
** directly, by a diagonal run then a straight run. The walk stops at the
** wall, or where it reaches the goal's nearer row or column with a free
** straight run from there to the goal -- then the goal is generated.
*/
ASTAR__INLINE void diagonal_run(jpp_state *S, const astar__query *q, const int tie, const bool obs,
                                const jpp_node *x, const int d) {
  const int32_t ddx = astar__dir_dx[d], ddy = astar__dir_dy[d];
  const int a = ddy < 0 ? ASTAR__N : ASTAR__S, b = ddx > 0 ? ASTAR__E : ASTAR__W;
  const int32_t ax = x->rx * ddx, ay = x->ry * ddy, kt = ax < ay ? ax : ay;
  const int32_t off = q->off[d], offa = q->off[a], offb = q->off[b];
  const double cs = q->cost[ASTAR__N], cd = q->cost[ASTAR__NE];
  int32_t kd = 0, v = x->du[d];
  for (;;) {
    if (kt > kd && kt <= kd + (v < 0 ? -v : v)) {
      const uint32_t t = (uint32_t)((int32_t)x->u + kt * off);
      /* The goal test at expansion (as Warthog's jps2+): when the straight
      ** run from t to the goal is free, the goal itself is generated from x
      ** (the parent link's shape, diagonal then straight, is this route).
      ** Nothing through t can reach the goal more cheaply -- from t the
      ** straight line is the octile distance -- so t is left out: one
      ** expansion fewer on most queries. When the run is blocked, t is no
      ** jump point for the goal and the walk goes on: a jump point on that
      ** run makes t a diagonal jump point of the table, met below. */
      const int s = ax < ay ? a : b;
      const int32_t rem = (ax < ay ? ay : ax) - kt;
      if (run_free(S->dist, q, t, s, rem)) { /* rem == 0: t is the goal */
        if (obs) emit_diagonal(q, x, d, kd, kt - kd);
        if (obs)
          astar__emit_scan(q, t, s == a ? 0 : ddx, s == a ? ddy : 0, rem, x->g + (double)kt * cd,
                           cs);
        relax(S, q, tie, obs, x->u, q->goal, x->ux + x->rx, x->uy + x->ry,
              x->g + (double)kt * cd + (double)rem * cs);
        return;
      }
    }
    if (obs) emit_diagonal(q, x, d, kd, v < 0 ? -v : v);
    if (v <= 0) return;
    kd += v;
    const uint32_t y = (uint32_t)((int32_t)x->u + kd * off);
    const int16_t *const dj = S->dist + (size_t)y * JPP_DIRS;
    const int32_t yx = x->ux + kd * ddx, yy = x->uy + kd * ddy;
    const double gj = x->g + (double)kd * cd;
    const int32_t wa = dj[a], wb = dj[b];
    if (obs) {
      astar__emit_scan(q, y, 0, ddy, wa < 0 ? -wa : wa, gj, cs);
      astar__emit_scan(q, y, ddx, 0, wb < 0 ? -wb : wb, gj, cs);
    }
    if (wa > 0)
      relax(S, q, tie, obs, x->u, (uint32_t)((int32_t)y + wa * offa), yx, yy + wa * ddy,
            gj + (double)wa * cs);
    if (wb > 0)
      relax(S, q, tie, obs, x->u, (uint32_t)((int32_t)y + wb * offb), yx + wb * ddx, yy,
            gj + (double)wb * cs);
    v = dj[d];
  }
}

/*
** The A* loop over jump points; `tie` and `obs` (report events to
** q->fx->observer) are constants at the call sites. Returns ASTAR_OK (goal
** popped), ASTAR_NO_PATH or ASTAR_LIMIT_REACHED.
*/
ASTAR__INLINE astar_status jpp_loop(astar_workspace *ws, astar__query *q, const astar_jps_plus *pre,
                                    const int tie, const bool obs) {
  jpp_state S;
  S.nd = ws->node;
  S.mark = ws->mark;
  S.open = &ws->open;
  S.dist = pre->dist;
  S.gen = ws->gen;
  S.closed = (uint16_t)(ws->gen | 1u);
  S.slot_full = false;
  S.slot = (astar__hent){0, 0};
  S.seq = ws->seq;
  S.stats = q->stats;
  astar__node *const nd = S.nd;
  astar__heap *const open = S.open;
  const uint8_t *const nbs = q->grid->nb;
  const int16_t *const dist = pre->dist;
  const uint32_t goal = q->goal;
  const int32_t stride = pre->stride, gx = q->gx, gy = q->gy;
  const double inv_stride = 1.0 / (double)stride;
  const uint64_t limit = q->max_expansions;
  astar_status st = ASTAR_NO_PATH;

  for (;;) {
    if (!S.slot_full && !open->len) break;
    if (limit && S.stats.expanded >= limit) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    uint32_t u;
    if (S.slot_full && (!open->len || astar__hless(&S.slot, &open->a[0]))) {
      u = ASTAR__HNODE(S.slot);
      S.slot_full = false;
    } else {
      u = ASTAR__HNODE(astar__heap_pop(open, nd));
    }
    S.mark[u] = S.closed;
    astar__count_expand(&S.stats);
    if (obs) {
      const int32_t ey = row_of(u, stride, inv_stride), ex = (int32_t)u - ey * stride;
      q->stats.expanded = S.stats.expanded; /* for the events */
      astar__emit(q, u == goal ? ASTAR_EVENT_GOAL : ASTAR_EVENT_EXPAND, u, nd[u].parent, nd[u].g,
                  nd[u].g + astar__h(q, ASTAR__HK_OCTILE, ex, ey), 1);
    }
    if (u == goal) {
      st = ASTAR_OK;
      break;
    }
    const double gu = nd[u].g;
    const int32_t uy = row_of(u, stride, inv_stride), ux = (int32_t)u - uy * stride;
    const uint32_t par = nd[u].parent;
    int t = JPP_START;
    if (par != ASTAR__NO_PARENT) {
      const int32_t py = row_of(par, stride, inv_stride), px = (int32_t)par - py * stride;
      t = last_run(ux - px, uy - py);
    }
    unsigned m = pre->succ[t][nbs[u]];
    const int16_t *const du = dist + (size_t)u * JPP_DIRS;
    const int32_t rx = gx - ux, ry = gy - uy;
    /* The one straight ray that can meet the goal, and how far along. */
    const int gdir = rx == 0   ? (ry < 0 ? ASTAR__N : ASTAR__S)
                     : ry == 0 ? (rx < 0 ? ASTAR__W : ASTAR__E)
                               : -1;
    const int32_t galong = rx == 0 ? (ry < 0 ? -ry : ry) : (rx < 0 ? -rx : rx);
    const jpp_node x = {u, ux, uy, gu, du, rx, ry, gdir, galong};
    /* One specialised block per direction, in the order N E S W NE SE SW NW. */
    if (m & 0x0fu) {
      if (m & 0x01u) straight_run(&S, q, tie, obs, &x, ASTAR__N);
      if (m & 0x02u) straight_run(&S, q, tie, obs, &x, ASTAR__E);
      if (m & 0x04u) straight_run(&S, q, tie, obs, &x, ASTAR__S);
      if (m & 0x08u) straight_run(&S, q, tie, obs, &x, ASTAR__W);
    }
    if (m & 0xf0u) {
      if (m & 0x10u) diagonal_run(&S, q, tie, obs, &x, ASTAR__NE);
      if (m & 0x20u) diagonal_run(&S, q, tie, obs, &x, ASTAR__SE);
      if (m & 0x40u) diagonal_run(&S, q, tie, obs, &x, ASTAR__SW);
      if (m & 0x80u) diagonal_run(&S, q, tie, obs, &x, ASTAR__NW);
    }
  }
  q->stats = S.stats;
  ws->seq = S.seq;
  return st;
}

/* The search proper; ws, pre and grid are not NULL. */
astar_status astar__jps_plus_check(const astar_jps_plus *pre, const astar_grid *grid) {
  if (pre->grid != grid || pre->width != grid->width || pre->height != grid->height)
    return ASTAR_MISMATCH;
  return pre->version != grid->version ? ASTAR_STALE : ASTAR_OK;
}

/* The search with options already validated (opt not NULL). */
static astar_status search(astar_workspace *ws, const astar_jps_plus *pre, const astar_grid *grid,
                           const astar_options *opt, astar_point start, astar_point goal,
                           astar_point *path, size_t cap, astar_result *result) {
  if (pre->grid != grid || pre->width != grid->width || pre->height != grid->height)
    return ASTAR_MISMATCH;
  if (pre->version != grid->version) return ASTAR_STALE;
  if (!astar__jump_rules_ok(opt, grid)) return ASTAR_UNSUPPORTED;
  astar__query q;
  bool trivial;
  astar_status st = astar__begin(&q, ws, grid, opt, start, goal, &trivial);
  if (st != ASTAR_OK) return st;
  if (opt->observer) {
    /* One instance with the events, apart from the plain ones. */
    astar__observe_start(&q, opt, trivial);
    if (!trivial) st = jpp_loop(ws, &q, pre, q.tie, true);
  } else if (!trivial) {
    if (q.tie == ASTAR_TIE_LARGER_G)
      st = jpp_loop(ws, &q, pre, ASTAR_TIE_LARGER_G, false);
    else
      st = jpp_loop(ws, &q, pre, q.tie, false);
  }
  return astar__end(&q, ws, st, path, cap, result);
}

astar_status astar_jps_plus_find_path(astar_workspace *ws, const astar_jps_plus *pre,
                                      const astar_grid *grid, const astar_options *opt,
                                      astar_point start, astar_point goal, astar_point *path,
                                      size_t cap, astar_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!ws || !pre || !grid || (cap > 0 && !path)) return ASTAR_INVALID_ARGUMENT;
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults); /* valid by construction */
    opt = &defaults;
  } else if (astar_options_validate(opt) != ASTAR_OK) { /* the one validation of the query */
    astar__workspace_claim(ws);
    astar__result_clear(result, ASTAR_INVALID_ARGUMENT);
    return ASTAR_INVALID_ARGUMENT;
  }
  return astar__jps_plus_find_path_checked(ws, pre, grid, opt, start, goal, path, cap, result);
}

astar_status astar__jps_plus_find_path_checked(astar_workspace *ws, const astar_jps_plus *pre,
                                               const astar_grid *grid, const astar_options *opt,
                                               astar_point start, astar_point goal,
                                               astar_point *path, size_t cap,
                                               astar_result *result) {
  if (result) memset(result, 0, sizeof *result);
  /* As astar_find_path does for ASTAR_ALGO_JPS: a one-shot search ends any
  ** search on ws. */
  astar__workspace_claim(ws);
  const astar_status st = search(ws, pre, grid, opt, start, goal, path, cap, result);
  if (result) {
    result->cause = st;
    result->end = ws->found ? goal : (astar_point){-1, -1};
  }
  return st;
}
