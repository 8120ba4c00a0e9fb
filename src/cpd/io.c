/*
** cpd/io.c -- the CPD's byte formats: the saved table ("ASTARCPD") and the
** blocks of rows built apart ("ASTARCPB"), and joining blocks into a table.
** One layout serves both, so a table's file is the one block covering every
** source under another magic.
**
** Byte format (all integers little-endian):
**   0  magic "ASTARCPD" / "ASTARCPB"   8 bytes
**   8  format version (2; 1 is read)   u32
**  12  width, height                   u32, u32
**  20  nodes (passable cells) n        u32
**  24  checksum of the grid's cells    u64 (astar__grid_cells_checksum)
**  32  first source, sources count     u32, u32 (the table: 0, n)
**  40  runs in these rows              u64
**  48  checksum of the file            u64 (bytes 0..47, then the data)
**  56  data: count run counts (u32), then the runs (u32) one row after
**      another: first << 8 | jump code << 3 | move (cpd.h).
** Node numbers are not stored: they are derived from the grid on loading.
** Version 1 (before the jumps) stored first << 3 | move: its runs load as
** jump code 0, one step a lookup, the walk they were built for.
*/
#include "cpd/cpd.h"

#include "core/bytes.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t cpd_magic[8] = {'A', 'S', 'T', 'A', 'R', 'C', 'P', 'D'};   /* no NUL */
static const uint8_t block_magic[8] = {'A', 'S', 'T', 'A', 'R', 'C', 'P', 'B'}; /* no NUL */
#define CPD_FORMAT 2u
#define CPD_FORMAT_V1 1u /* runs first << 3 | move, no jump codes */
#define CPD_HEADER 56u

struct astar_cpd_block {
  astar_allocator alloc; /* where bytes came from */
  uint8_t *bytes;        /* [len] the block in the format above */
  size_t len;            /* bytes */
};

/* What a header says, once checked. */
typedef struct cpd_header {
  uint32_t n, first, count; /* nodes, first source, sources */
  uint32_t version;         /* CPD_FORMAT or CPD_FORMAT_V1 */
  uint64_t nruns;           /* runs in the data */
} cpd_header;

/* Checksum of the header's first 48 bytes and of the data, 8 bytes a word
** (a last half word alone). */
static uint64_t file_checksum(const uint8_t *buf, size_t len) {
  uint64_t h = ASTAR__HASH_INIT;
  for (size_t i = 0; i < 48; i += 8) h = astar__hash_word(h, astar__get_le64(buf + i));
  size_t i = CPD_HEADER;
  for (; i + 8 <= len; i += 8) h = astar__hash_word(h, astar__get_le64(buf + i));
  if (i < len) h = astar__hash_word(h, astar__get_le32(buf + i));
  return h;
}

/* Write the header and the data of rows first .. first+count-1 (counts[] and
** runs[]) into p, which holds the whole size. */
static void encode(uint8_t *p, const uint8_t magic[8], int32_t width, int32_t height,
                   uint64_t cells_sum, uint32_t n, uint32_t first, uint32_t count,
                   const uint32_t *counts, const uint64_t *row, const uint32_t *runs,
                   uint64_t nruns) {
  memcpy(p, magic, 8);
  astar__put_le32(p + 8, CPD_FORMAT);
  astar__put_le32(p + 12, (uint32_t)width);
  astar__put_le32(p + 16, (uint32_t)height);
  astar__put_le32(p + 20, n);
  astar__put_le64(p + 24, cells_sum);
  astar__put_le32(p + 32, first);
  astar__put_le32(p + 36, count);
  astar__put_le64(p + 40, nruns);
  uint8_t *q = p + CPD_HEADER;
  for (uint32_t i = 0; i < count; i++, q += 4)
    astar__put_le32(q, counts ? counts[i] : row ? (uint32_t)(row[i + 1] - row[i]) : 0u);
  if (ASTAR__LITTLE_ENDIAN) {
    if (nruns) memcpy(q, runs, (size_t)nruns * 4);
  } else {
    for (uint64_t i = 0; i < nruns; i++) astar__put_le32(q + 4 * i, runs[i]);
  }
  const size_t len = CPD_HEADER + 4 * ((size_t)count + (size_t)nruns);
  astar__put_le64(p + 48, file_checksum(p, len));
}

/* Check bytes against the format and `g`: ASTAR_PARSE_ERROR, ASTAR_MISMATCH
** or ASTAR_OK with *h filled. */
static astar_status parse(const uint8_t *p, size_t len, const uint8_t magic[8], const astar_grid *g,
                          uint64_t cells_sum, cpd_header *h) {
  if (!p || len < CPD_HEADER || memcmp(p, magic, 8) != 0) return ASTAR_PARSE_ERROR;
  h->version = astar__get_le32(p + 8);
  if (h->version != CPD_FORMAT && h->version != CPD_FORMAT_V1) return ASTAR_PARSE_ERROR;
  const uint32_t w = astar__get_le32(p + 12), ht = astar__get_le32(p + 16);
  if (w < 1 || ht < 1 || w > ASTAR_GRID_MAX_SIDE || ht > ASTAR_GRID_MAX_SIDE ||
      (uint64_t)w * ht > ASTAR_GRID_MAX_CELLS)
    return ASTAR_PARSE_ERROR;
  h->n = astar__get_le32(p + 20);
  h->first = astar__get_le32(p + 32);
  h->count = astar__get_le32(p + 36);
  h->nruns = astar__get_le64(p + 40);
  if (h->n > (uint64_t)w * ht || h->n > ASTAR__CPD_MAX_NODES ||
      (uint64_t)h->first + h->count > h->n)
    return ASTAR_PARSE_ERROR;
  /* Every row holds at most n runs: bounds nruns before multiplying. */
  if (h->nruns > (uint64_t)h->count * h->n) return ASTAR_PARSE_ERROR;
  if ((uint64_t)len != CPD_HEADER + 4 * ((uint64_t)h->count + h->nruns)) return ASTAR_PARSE_ERROR;
  if (astar__get_le64(p + 48) != file_checksum(p, len)) return ASTAR_PARSE_ERROR;
  if ((int32_t)w != g->width || (int32_t)ht != g->height) return ASTAR_MISMATCH;
  if (astar__get_le64(p + 24) != cells_sum) return ASTAR_MISMATCH;
  if (h->n != astar__cpd_count(g)) return ASTAR_MISMATCH;
  return ASTAR_OK;
}

bool astar__cpd_rows_valid(const astar__cpd_order *o, uint32_t first, uint32_t count,
                           const uint32_t *counts, const uint32_t *runs) {
  const uint32_t *r = runs;
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t s = first + i, c = counts[i];
    if (c == 0) {
      if (o->legal[s]) return false;
      continue;
    }
    if (ASTAR__CPD_FIRST(r[0]) != 0) return false;
    for (uint32_t j = 0; j < c; j++) {
      if (ASTAR__CPD_FIRST(r[j]) >= o->n || !((o->legal[s] >> ASTAR__CPD_MOVE(r[j])) & 1u))
        return false;
      if (j && ASTAR__CPD_FIRST(r[j]) <= ASTAR__CPD_FIRST(r[j - 1])) return false;
    }
    r += c;
  }
  return true;
}

/* Read nruns little-endian runs from q, written in format `version`. A
** version 1 run becomes the same run with jump code 0; false when its first
** target cannot be a node (the caller's check would not see it shifted). */
static bool decode_runs(const uint8_t *q, uint64_t nruns, uint32_t *runs, uint32_t version) {
  if (ASTAR__LITTLE_ENDIAN) {
    if (nruns && runs) memcpy(runs, q, (size_t)nruns * 4);
  } else {
    for (uint64_t i = 0; i < nruns; i++) runs[i] = astar__get_le32(q + 4 * i);
  }
  if (version == CPD_FORMAT_V1)
    for (uint64_t i = 0; i < nruns; i++) {
      const uint32_t first = runs[i] >> 3;
      if (first >= ASTAR__CPD_MAX_NODES) return false;
      runs[i] = ASTAR__CPD_RUN(first, 0u, runs[i] & 7u);
    }
  return true;
}

astar_status astar__cpd_alloc(astar_cpd **out, const astar_grid *grid, uint64_t cells_sum,
                              uint64_t nruns, const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_cpd *cpd = astar__malloc(&a, sizeof *cpd);
  if (!cpd) return ASTAR_NO_MEMORY;
  memset(cpd, 0, sizeof *cpd);
  cpd->alloc = a;
  cpd->grid = grid;
  cpd->version = grid->version;
  cpd->width = grid->width;
  cpd->height = grid->height;
  cpd->stride = grid->stride;
  cpd->cells_sum = cells_sum;
  astar_status st = astar__cpd_order_make(&cpd->order, grid, &a);
  if (st != ASTAR_OK) {
    astar__free(&a, cpd, sizeof *cpd);
    return st;
  }
  cpd->row = astar__malloc(&a, ((size_t)cpd->order.n + 1) * sizeof *cpd->row);
  size_t bytes = 0;
  if (nruns > SIZE_MAX / 4 || !astar__mul((size_t)nruns, 4, &bytes)) {
    astar_cpd_free(cpd);
    return ASTAR_NO_MEMORY;
  }
  cpd->runs = nruns ? astar__malloc(&a, bytes) : NULL;
  cpd->runs_cap = cpd->runs ? (size_t)nruns : 0;
  if (!cpd->row || (nruns && !cpd->runs)) {
    astar_cpd_free(cpd);
    return ASTAR_NO_MEMORY;
  }
  *out = cpd;
  return ASTAR_OK;
}

/* ---- the table ------------------------------------------------------------- */

astar_status astar_cpd_save(const astar_cpd *cpd, void *buf, size_t cap, size_t *len) {
  if (!cpd || !len) return ASTAR_INVALID_ARGUMENT;
  const uint32_t n = cpd->order.n;
  const uint64_t nruns = cpd->row[n];
  /* Fits a size_t: it is about the size of the table in memory. */
  const size_t need = CPD_HEADER + 4 * ((size_t)n + (size_t)nruns);
  *len = need;
  if (!buf || cap < need) return ASTAR_BUFFER_TOO_SMALL;
  encode(buf, cpd_magic, cpd->width, cpd->height, cpd->cells_sum, n, 0, n, NULL, cpd->row,
         cpd->runs, nruns);
  return ASTAR_OK;
}

astar_status astar_cpd_load(astar_cpd **out, const astar_grid *grid, const void *buf, size_t len,
                            const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || (!buf && len > 0)) return ASTAR_INVALID_ARGUMENT;
  if (grid->terrain) return ASTAR_UNSUPPORTED;
  const uint64_t sum = astar__grid_cells_checksum(grid);
  if (!buf || len < CPD_HEADER) return ASTAR_PARSE_ERROR;
  cpd_header h;
  astar_status st = parse(buf, len, cpd_magic, grid, sum, &h);
  if (st != ASTAR_OK) return st;
  if (h.first != 0 || h.count != h.n) return ASTAR_PARSE_ERROR;
  astar_cpd *cpd;
  st = astar__cpd_alloc(&cpd, grid, sum, h.nruns, alloc);
  if (st != ASTAR_OK) return st;
  /* The run counts become the row offsets as they are read. */
  const uint8_t *q = (const uint8_t *)buf + CPD_HEADER;
  uint64_t at = 0;
  for (uint32_t s = 0; s < h.n; s++, q += 4) {
    cpd->row[s] = at;
    at += astar__get_le32(q);
  }
  cpd->row[h.n] = at;
  bool ok = at == h.nruns;
  if (ok) ok = decode_runs(q, h.nruns, cpd->runs, h.version);
  if (ok) {
    for (uint32_t s = 0; s < h.n && ok; s++) {
      const uint32_t c = (uint32_t)(cpd->row[s + 1] - cpd->row[s]);
      ok = astar__cpd_rows_valid(&cpd->order, s, 1, &c, cpd->runs + cpd->row[s]);
    }
  }
  st = ok ? astar__cpd_index(cpd) : ASTAR_PARSE_ERROR;
  if (st != ASTAR_OK) {
    astar_cpd_free(cpd);
    return st;
  }
  *out = cpd;
  return ASTAR_OK;
}

/* ---- blocks -------------------------------------------------------------------- */

astar_status astar_cpd_block_build(astar_cpd_block **out, const astar_grid *grid,
                                   const astar_cpd_config *cfg, uint32_t first, uint32_t count,
                                   const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid) return ASTAR_INVALID_ARGUMENT;
  uint32_t n;
  astar_status st = astar__cpd_precheck(grid, cfg, &n, count, false);
  if (st == ASTAR_OK && (uint64_t)first + count > n) st = ASTAR_OUT_OF_BOUNDS;
  if (st != ASTAR_OK) return st;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_cpd_block *b = astar__malloc(&a, sizeof *b);
  if (!b) return ASTAR_NO_MEMORY;
  memset(b, 0, sizeof *b);
  b->alloc = a;
  astar__cpd_order o;
  st = astar__cpd_order_make(&o, grid, &a);
  if (st != ASTAR_OK) {
    astar__free(&a, b, sizeof *b);
    return st;
  }
  astar__cpd_rows rows;
  st = astar__cpd_rows_build(&rows, &o, grid, cfg, first, count,
                             sizeof *b + astar__cpd_order_bytes(n, grid->ncells), &a);
  astar__cpd_order_free(&o, &a);
  if (st != ASTAR_OK) {
    astar__free(&a, b, sizeof *b);
    return st;
  }
  b->len = CPD_HEADER + 4 * ((size_t)count + (size_t)rows.nruns);
  b->bytes = astar__malloc(&a, b->len);
  if (!b->bytes) {
    astar__cpd_rows_free(&rows, count, &a);
    astar__free(&a, b, sizeof *b);
    return ASTAR_NO_MEMORY;
  }
  encode(b->bytes, block_magic, grid->width, grid->height, astar__grid_cells_checksum(grid), n,
         first, count, rows.counts, NULL, rows.runs, rows.nruns);
  astar__cpd_rows_free(&rows, count, &a);
  *out = b;
  return ASTAR_OK;
}

const void *astar_cpd_block_data(const astar_cpd_block *block, size_t *len) {
  if (len) *len = block ? block->len : 0;
  return block ? block->bytes : NULL;
}

void astar_cpd_block_free(astar_cpd_block *block) {
  if (!block) return;
  const astar_allocator a = block->alloc;
  astar__free(&a, block->bytes, block->len);
  astar__free(&a, block, sizeof *block);
}

/* A block's place while joining: sorted by first source. */
typedef struct cpd_piece {
  uint32_t first, count; /* sources */
  size_t index;          /* in the caller's arrays */
} cpd_piece;

static int piece_cmp(const void *x, const void *y) {
  const cpd_piece *a = x, *b = y;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

astar_status astar_cpd_assemble(astar_cpd **out, const astar_grid *grid, const void *const *data,
                                const size_t *lens, size_t nblocks, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || (nblocks && (!data || !lens))) return ASTAR_INVALID_ARGUMENT;
  for (size_t i = 0; i < nblocks; i++)
    if (!data[i] && lens[i]) return ASTAR_INVALID_ARGUMENT;
  if (grid->terrain) return ASTAR_UNSUPPORTED;
  const uint64_t sum = astar__grid_cells_checksum(grid);
  const uint32_t n = astar__cpd_count(grid);
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  cpd_piece *pieces = nblocks ? astar__calloc(&a, nblocks, sizeof *pieces) : NULL;
  if (nblocks && !pieces) return ASTAR_NO_MEMORY;
  astar_status st = ASTAR_OK;
  uint64_t nruns = 0;
  for (size_t i = 0; i < nblocks && st == ASTAR_OK; i++) {
    cpd_header h;
    st = parse(data[i], lens[i], block_magic, grid, sum, &h);
    if (st != ASTAR_OK) break;
    pieces[i].first = h.first;
    pieces[i].count = h.count;
    pieces[i].index = i;
    nruns += h.nruns;
  }
  if (st == ASTAR_OK && nblocks) qsort(pieces, nblocks, sizeof *pieces, piece_cmp);
  /* Blocks must tile 0 .. n-1 (empty blocks anywhere). */
  uint32_t next = 0;
  for (size_t i = 0; i < nblocks && st == ASTAR_OK; i++) {
    if (pieces[i].count == 0) continue;
    if (pieces[i].first != next) st = ASTAR_PARSE_ERROR;
    next += pieces[i].count;
  }
  if (st == ASTAR_OK && next != n) st = ASTAR_PARSE_ERROR;
  astar_cpd *cpd = NULL;
  if (st == ASTAR_OK) st = astar__cpd_alloc(&cpd, grid, sum, nruns, &a);
  uint64_t at = 0;
  for (size_t i = 0; i < nblocks && st == ASTAR_OK; i++) {
    if (pieces[i].count == 0) continue;
    const uint8_t *p = data[pieces[i].index];
    cpd_header h;
    if (parse(p, lens[pieces[i].index], block_magic, grid, sum, &h) != ASTAR_OK) {
      st = ASTAR_PARSE_ERROR; /* checked above: not reached */
      break;
    }
    const uint8_t *q = p + CPD_HEADER;
    uint64_t block_runs = 0;
    for (uint32_t j = 0; j < h.count; j++, q += 4) {
      cpd->row[h.first + j] = at + block_runs;
      block_runs += astar__get_le32(q);
    }
    if (block_runs != h.nruns) {
      st = ASTAR_PARSE_ERROR;
      break;
    }
    if (!decode_runs(q, h.nruns, cpd->runs + at, h.version)) {
      st = ASTAR_PARSE_ERROR;
      break;
    }
    at += h.nruns;
  }
  if (st == ASTAR_OK) {
    cpd->row[n] = at;
    for (uint32_t s = 0; s < n && st == ASTAR_OK; s++) {
      const uint32_t c = (uint32_t)(cpd->row[s + 1] - cpd->row[s]);
      if (!astar__cpd_rows_valid(&cpd->order, s, 1, &c, cpd->runs + cpd->row[s]))
        st = ASTAR_PARSE_ERROR;
    }
  }
  astar__free(&a, pieces, nblocks * sizeof *pieces);
  if (st == ASTAR_OK) st = astar__cpd_index(cpd);
  if (st != ASTAR_OK) {
    astar_cpd_free(cpd);
    return st;
  }
  *out = cpd;
  return ASTAR_OK;
}
