/*
** cpd/query.c -- answering a query from the CPD: find the goal's node in
** the current cell's row (inline in the cell's index word for a small row,
** else through the goal's bucket and a branchless binary search over the
** few runs it leaves), take that run's move, repeat until the goal; what
** the next steps in the last direction will read is prefetched meanwhile.
** Also the making of the index and buckets. No search, no workspace, no
** allocation; the object is only read, so queries may run in parallel.
**
** Every run's move is legal from its source (checked when built, and when
** loaded), so the walk stays on passable cells of one component. A loaded
** table that passed the checksum but was crafted could still cycle: a walk
** longer than the node count cannot be a shortest path and ends with
** ASTAR_PARSE_ERROR.
*/
#include "cpd/cpd.h"

#include "search/query.h"

/* Runs (4 bytes each) above which a table is taken as far bigger than the
** caches and the walk prefetches (1 MiB of runs). Measured with the
** buckets: prefetching takes 32 % off on den520d (7 MB), 19 % on brc202d
** (7 MB), 53 % on AR0011SR (83 MB); on den312d (0.2 MB) it cost time. */
#define CPD_PREFETCH_RUNS (1u << 18)

/* The node of p, or the status saying why it has none. */
static astar_status locate(const astar_cpd *cpd, astar_point p, astar_status blocked,
                           uint32_t *node) {
  if (p.x < 0 || p.y < 0 || p.x >= cpd->width || p.y >= cpd->height) return ASTAR_OUT_OF_BOUNDS;
  const uint32_t cell = (uint32_t)(p.y + 1) * (uint32_t)cpd->stride + (uint32_t)(p.x + 1);
  *node = cpd->order.node_of[cell];
  return *node == ASTAR__CPD_NONE ? blocked : ASTAR_OK;
}

/* Common checks of both queries; *s and *t the endpoints' nodes. */
static astar_status endpoints(const astar_cpd *cpd, const astar_grid *grid, astar_point start,
                              astar_point goal, uint32_t *s, uint32_t *t) {
  if (cpd->grid != grid || cpd->width != grid->width || cpd->height != grid->height)
    return ASTAR_MISMATCH;
  if (cpd->version != grid->version) return ASTAR_STALE;
  astar_status st = locate(cpd, start, ASTAR_START_BLOCKED, s);
  if (st == ASTAR_OK) st = locate(cpd, goal, ASTAR_GOAL_BLOCKED, t);
  if (st == ASTAR_OK && cpd->order.comp[*s] != cpd->order.comp[*t]) st = ASTAR_NO_PATH;
  return st;
}

/*
** The index: one uint64 a padded cell, the row as the walk reads it, so a
** step starts with one load from the cell (no node number, no row
** offsets) and, for a small row, needs no second load at all. The top two
** bits give the kind:
**   INLINE    rows of at most three runs: the moves m0, m1, m2 in bits
**             0-8 (3 each), the first targets s1, s2 of runs 1 and 2 in
**             bits 9-30 and 31-52 (run 0 starts at 0), the runs' jump caps
**             as 3-bit codes (CAP3) in bits 53-61; a missing run has start
**             2^22 - 1, above every target (inline rows are used only below
**             2^22 - 1 nodes). The move toward t is m[c] with c the number
**             of starts <= t.
**   BUCKETED  the row's node in bits 0-24 and its first run's offset in
**             runs[] in bits 25-61; the buckets below narrow the search.
**   COUNTED   the row's run count in bits 0-24, its offset in bits 25-61:
**             the whole row is searched. Every larger row of a table
**             without buckets, and a row of more than 2,048 runs.
**   NONE      a blocked cell, or an empty row (its source has no move).
**
** Buckets. The targets are cut into nbuckets ranges of 2^bucket_shift node
** numbers; for row s and bucket j, bucket[s * (nbuckets + 1) + j] is
** i << 5 | c << 3 | m for the run i holding the range's first target, its
** jump cap as a 2-bit code c (CAP2) and its move m; entry nbuckets is the
** row's last run (uint16 entries, hence the limit above). A query's target stays in one bucket all
*the walk, so a step
** loads two adjacent entries: when both name the same run (most lookups:
** 79 % on den520d, the runs near the source are short and the far ones
** long) the move is in the entry, else only the runs between them are
** searched (a few, not the whole row).
*/
#define IDX_INLINE 0ull
#define IDX_BUCKETED 1ull
#define IDX_COUNTED 2ull
#define IDX_NONE 3ull
#define IDX_KIND(r) ((r) >> 62)
#define IDX_NO_START ((1ull << 22) - 1)
#define IDX_MAX_RUNS 2048u /* runs of a bucketed row: i of its entries fits 11 bits */
#define IDX_MAX_OFFSET ((1ull << 37) - 1)
#define IDX_LOW(r) ((uint32_t)((r) & ((1u << 25) - 1))) /* node or count */
#define IDX_OFFSET(r) (((r) >> 25) & IDX_MAX_OFFSET)

/* Jump caps of the index's short codes, each the largest at most a run's
** own cap (astar__cpd_cap of its 5-bit code): a smaller cap is as exact. */
static const uint32_t cap3[8] = {1, 2, 3, 4, 6, 8, 16, ASTAR__CPD_UNBOUNDED};
static const uint32_t cap2[4] = {1, 3, 8, ASTAR__CPD_UNBOUNDED};

/* The largest code of table[0 .. size-1] (increasing) whose cap is at most
** that of the run. */
static unsigned short_code(const uint32_t *table, unsigned size, uint32_t run) {
  const uint32_t cap = astar__cpd_cap(ASTAR__CPD_CODE(run));
  unsigned c = 0;
  while (c + 1 < size && table[c + 1] <= cap) c++;
  return c;
}

size_t astar__cpd_index_bytes(uint32_t ncells) {
  return (size_t)ncells * sizeof(uint64_t);
}

size_t astar__cpd_bucket_bytes(const astar_cpd *cpd) {
  return cpd->nbuckets ? (size_t)cpd->order.n * (cpd->nbuckets + 1) * sizeof(uint16_t) : 0;
}

/* log2 of the buckets a row for a table of n nodes and nruns runs: about
** half the mean run count (measured on den520d, brc202d and AR0011SR: 0.4
** to 0.6 of the mean was fastest), at most 64; 0 (none) below 4 runs a row.
** So a bucket holds about two runs: one search step. */
static uint32_t bucket_bits(uint32_t n, uint64_t nruns) {
  const uint64_t mean = n ? (nruns + n - 1) / n : 0;
  uint32_t k = 0;
  while (k < 6 && (4ull << k) <= mean) k++;
  return k;
}

astar_status astar__cpd_index(astar_cpd *cpd) {
  const astar__cpd_order *o = &cpd->order;
  const bool small_ok = o->n < IDX_NO_START;
  const uint64_t nruns = cpd->row[o->n];
  uint32_t k = o->n > 1 ? bucket_bits(o->n, nruns) : 0, bits = 0;
  while (bits < 32 && ((uint64_t)o->n - 1) >> bits) bits++; /* targets < 2^bits */
  if (k > bits) k = bits;
  cpd->cell_row = astar__malloc(&cpd->alloc, astar__cpd_index_bytes(o->ncells));
  if (!cpd->cell_row) return ASTAR_NO_MEMORY;
  if (k > 0) {
    cpd->nbuckets = 1u << k;
    cpd->bucket_shift = bits - k;
    cpd->bucket = astar__malloc(&cpd->alloc, astar__cpd_bucket_bytes(cpd));
    if (!cpd->bucket) {
      cpd->nbuckets = 0;
      return ASTAR_NO_MEMORY;
    }
  }
  for (uint32_t c = 0; c < o->ncells; c++) cpd->cell_row[c] = IDX_NONE << 62;
  for (uint32_t s = 0; s < o->n; s++) {
    const uint64_t at = cpd->row[s], cnt = cpd->row[s + 1] - at;
    const uint32_t *r = cpd->runs + at;
    uint64_t v;
    if (cnt == 0) {
      v = IDX_NONE << 62;
    } else if (cnt <= 3 && small_ok) {
      uint64_t s1 = IDX_NO_START, s2 = IDX_NO_START, m1 = 0, m2 = 0, c1 = 0, c2 = 0;
      if (cnt > 1)
        s1 = ASTAR__CPD_FIRST(r[1]), m1 = ASTAR__CPD_MOVE(r[1]), c1 = short_code(cap3, 8, r[1]);
      if (cnt > 2)
        s2 = ASTAR__CPD_FIRST(r[2]), m2 = ASTAR__CPD_MOVE(r[2]), c2 = short_code(cap3, 8, r[2]);
      const uint64_t c0 = short_code(cap3, 8, r[0]);
      v = c2 << 59 | c1 << 56 | c0 << 53 | s2 << 31 | s1 << 9 | m2 << 6 | m1 << 3 |
          ASTAR__CPD_MOVE(r[0]); /* kind INLINE: 0 */
    } else if (cpd->nbuckets && cnt <= IDX_MAX_RUNS) {
      /* Offsets fit 37 bits: a table of 2^37 runs could not be allocated. */
      v = IDX_BUCKETED << 62 | (at & IDX_MAX_OFFSET) << 25 | s;
    } else {
      v = IDX_COUNTED << 62 | (at & IDX_MAX_OFFSET) << 25 | cnt;
    }
    cpd->cell_row[o->cell_of[s]] = v;
    if (IDX_KIND(v) == IDX_BUCKETED) {
      uint16_t *e = cpd->bucket + (size_t)s * (cpd->nbuckets + 1);
      uint64_t i = 0;
      for (uint32_t j = 0; j < cpd->nbuckets; j++) {
        const uint64_t first = (uint64_t)j << cpd->bucket_shift;
        while (i + 1 < cnt && ASTAR__CPD_FIRST(r[i + 1]) <= first) i++;
        e[j] = (uint16_t)(i << 5 | short_code(cap2, 4, r[i]) << 3 | ASTAR__CPD_MOVE(r[i]));
      }
      e[cpd->nbuckets] = (uint16_t)((cnt - 1) << 5 | short_code(cap2, 4, r[cnt - 1]) << 3 |
                                    ASTAR__CPD_MOVE(r[cnt - 1]));
    }
  }
  return ASTAR_OK;
}

/* The last run in base[0 .. cnt-1] (cnt >= 1, the first run holding
** targets <= t) whose first target is <= t: a branchless binary search over
** the packed runs, compared with t's largest packed value. */
ASTAR__INLINE uint32_t search_runs(const uint32_t *base, uint64_t cnt, uint32_t t) {
  const uint32_t key = ASTAR__CPD_RUN(t, 31u, 7u);
  while (cnt > 1) {
    const uint64_t half = cnt / 2;
    base = base[half] <= key ? base + half : base;
    cnt -= half;
  }
  return *base;
}

/* The neighbour bits a move in direction d needs (no corner cutting): a
** diagonal its two straight sides too. */
static const uint8_t need[8] = {0x01, 0x02, 0x04, 0x08, 0x13, 0x26, 0x4C, 0x89};

/* Walk from s to t, writing cells 1 .. into path[] while they fit cap.
** *a, *b: straight and diagonal steps; *lookups: rows read. Each lookup
** gives a move d and a jump cap; the walk takes min(cap, rule) steps in d
** (astar__cpd_rule; build.c shows every such step stays optimal). The
** first step is legal by the load's checks; the further steps of a jump are
** checked against the grid's neighbour bytes, so a damaged table cannot
** lead the walk through a wall or out of the map (its border is blocked). */
static astar_status walk(const astar_cpd *cpd, const astar_grid *grid, uint32_t s, uint32_t t,
                         astar_point *path, size_t cap, size_t *a, size_t *b, size_t *lookups) {
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = astar__dir_dy[d] * cpd->stride + astar__dir_dx[d];
  const uint64_t *const idx = cpd->cell_row;
  const uint32_t *const runs = cpd->runs;
  const uint8_t *const nb = grid->nb;
  const size_t width = cpd->nbuckets + 1;
  /* t's bucket entry of row 0; row s's is s * width further. */
  const uint16_t *const bk = cpd->nbuckets ? cpd->bucket + (t >> cpd->bucket_shift) : NULL;
  const bool far = cpd->row[cpd->order.n] > CPD_PREFETCH_RUNS;
  const uint32_t goal = cpd->order.cell_of[t], n = cpd->order.n, ncells = cpd->order.ncells;
  const int32_t gx = (int32_t)(goal % (uint32_t)cpd->stride) - 1;
  const int32_t gy = (int32_t)(goal / (uint32_t)cpd->stride) - 1;
  const size_t fill = path ? cap : 0;
  size_t steps = 0, diagonal = 0, looked = 0;
  uint32_t cell = cpd->order.cell_of[s];
  /* The cell's coordinates follow the moves (no division a step). */
  int32_t x = (int32_t)(cell % (uint32_t)cpd->stride) - 1;
  int32_t y = (int32_t)(cell / (uint32_t)cpd->stride) - 1;
  int prev = 0;
  while (cell != goal) {
    if (steps >= n) return ASTAR_PARSE_ERROR;
    const uint64_t r = idx[cell];
    /* The index word two steps ahead in the last direction: the walk's
    ** chain of dependent loads otherwise waits on it when the index is
    ** larger than the first caches. */
    const uint32_t c2 = (uint32_t)((int32_t)cell + 2 * off[prev]);
    if (c2 < ncells) __builtin_prefetch(idx + c2);
    int d;
    uint32_t jump;
    if (IDX_KIND(r) == IDX_INLINE) {
      const unsigned c = (t >= ((r >> 9) & IDX_NO_START)) + (t >= ((r >> 31) & IDX_NO_START));
      d = (int)((r >> (3 * c)) & 7u);
      jump = cap3[(r >> (53 + 3 * c)) & 7u];
    } else if (IDX_KIND(r) == IDX_BUCKETED) {
      /* On a table far bigger than the caches, load ahead in the last
      ** direction (paths mostly go straight) while this row is searched:
      ** the runs the next cell will search (its bucket entry was fetched a
      ** step ago) and the bucket entry of the cell after. A path's rows
      ** are scattered over the table. On a small table that only costs
      ** time. */
      if (far) {
        const int32_t ahead = off[prev];
        const uint64_t v = idx[(uint32_t)((int32_t)cell + ahead)];
        if (IDX_KIND(v) == IDX_BUCKETED)
          __builtin_prefetch(runs + IDX_OFFSET(v) + (bk[IDX_LOW(v) * width] >> 5));
        if (c2 < ncells) {
          const uint64_t w = idx[c2];
          if (IDX_KIND(w) == IDX_BUCKETED) __builtin_prefetch(bk + IDX_LOW(w) * width);
        }
      }
      const uint16_t *e = bk + IDX_LOW(r) * width;
      const unsigned lo = e[0] >> 5u, hi = e[1] >> 5u;
      if (lo == hi) {
        d = (int)(e[0] & 7u);
        jump = cap2[(e[0] >> 3) & 3u];
      } else {
        const uint32_t run = search_runs(runs + IDX_OFFSET(r) + lo, hi - lo + 1, t);
        d = (int)ASTAR__CPD_MOVE(run);
        jump = astar__cpd_cap(ASTAR__CPD_CODE(run));
      }
    } else if (IDX_KIND(r) == IDX_COUNTED) {
      const uint32_t run = search_runs(runs + IDX_OFFSET(r), IDX_LOW(r), t);
      d = (int)ASTAR__CPD_MOVE(run);
      jump = astar__cpd_cap(ASTAR__CPD_CODE(run));
    } else {
      return ASTAR_PARSE_ERROR;
    }
    looked++;
    uint32_t k = 1;
    if (jump > 1) {
      /* Both unbounded only in a damaged table: then the walk goes on until
      ** the check below meets a wall. */
      const uint32_t rule = astar__cpd_rule(gx - x, gy - y, d);
      k = rule < jump ? rule : jump;
    }
    const int32_t o = off[d], ddx = astar__dir_dx[d], ddy = astar__dir_dy[d];
    for (uint32_t i = 0;;) {
      cell = (uint32_t)((int32_t)cell + o);
      x += ddx;
      y += ddy;
      steps++;
      if (steps < fill) {
        path[steps].x = x;
        path[steps].y = y;
      }
      if (++i == k) break;
      if ((nb[cell] & need[d]) != need[d]) return ASTAR_PARSE_ERROR;
    }
    prev = d;
    diagonal += (size_t)((unsigned)d >> 2) * k; /* directions 4..7 are the diagonals */
  }
  *a = steps - diagonal;
  *b = diagonal;
  if (lookups) *lookups = looked;
  return ASTAR_OK;
}

astar_status astar_cpd_path(const astar_cpd *cpd, const astar_grid *grid, astar_point start,
                            astar_point goal, astar_point *path, size_t cap, size_t *len,
                            double *cost) {
  if (!len) return ASTAR_INVALID_ARGUMENT;
  *len = 0;
  if (cost) *cost = 0.0;
  if (!cpd || !grid) return ASTAR_INVALID_ARGUMENT;
  uint32_t s, t;
  astar_status st = endpoints(cpd, grid, start, goal, &s, &t);
  if (st != ASTAR_OK) return st;
  if (path && cap > 0) path[0] = start;
  size_t a, b;
  st = walk(cpd, grid, s, t, path, cap, &a, &b, NULL);
  if (st != ASTAR_OK) return st;
  *len = a + b + 1;
  if (cost) *cost = (double)a + (double)b * ASTAR__SQRT2;
  return !path || cap < *len ? ASTAR_BUFFER_TOO_SMALL : ASTAR_OK;
}

astar_status astar_cpd_distance(const astar_cpd *cpd, const astar_grid *grid, astar_point start,
                                astar_point goal, double *cost, size_t *steps) {
  if (cost) *cost = 0.0;
  if (steps) *steps = 0;
  if (!cpd || !grid) return ASTAR_INVALID_ARGUMENT;
  uint32_t s, t;
  astar_status st = endpoints(cpd, grid, start, goal, &s, &t);
  if (st != ASTAR_OK) return st;
  size_t a, b;
  st = walk(cpd, grid, s, t, NULL, 0, &a, &b, NULL);
  if (st != ASTAR_OK) return st;
  if (steps) *steps = a + b;
  if (cost) *cost = (double)a + (double)b * ASTAR__SQRT2;
  return ASTAR_OK;
}

astar_status astar_cpd_lookups(const astar_cpd *cpd, const astar_grid *grid, astar_point start,
                               astar_point goal, size_t *steps, size_t *lookups) {
  if (steps) *steps = 0;
  if (lookups) *lookups = 0;
  if (!cpd || !grid) return ASTAR_INVALID_ARGUMENT;
  uint32_t s, t;
  astar_status st = endpoints(cpd, grid, start, goal, &s, &t);
  if (st != ASTAR_OK) return st;
  size_t a, b, looked = 0;
  st = walk(cpd, grid, s, t, NULL, 0, &a, &b, &looked);
  if (st != ASTAR_OK) return st;
  if (steps) *steps = a + b;
  if (lookups) *lookups = looked;
  return ASTAR_OK;
}
