/*
** subgoal/io.c -- the portable byte format of a subgoal graph
** (astar_subgoal_save / astar_subgoal_load).
**
** Byte format (integers little-endian, doubles as their IEEE-754 bits):
**    0  magic "ASTARSGG"                      8 bytes
**    8  format version (2)                    u32
**   12  width, height                         u32, u32
**   20  levels asked (config), levels built   u32, u32
**   28  subgoals n                            u32
**   32  arc entries m (each arc twice)        u32
**   36  zero                                  u32
**   40  straight cost, diagonal cost          f64, f64
**   56  checksum of the grid's cells          u64 (astar__grid_cells_checksum)
**   64  checksum of the file                  u64 (bytes 0..63, then the data,
**                                                  8 bytes a word)
**   72  data: level u8[n], first u32[n + 1], nup u32[n], adj u32[m],
**       amid u32[m] (the vertex an arc is a shortcut over; for a free line
**       which forms are free from the entry's vertex: 2^32 - 1 both,
**       2^32 - 2 straight-first only, 2^32 - 3 diagonal-first only),
**       zero bytes to a multiple of 8.
** The subgoals themselves, their coordinates and the clearances are not
** stored: they follow from the grid, which the cell checksum pins down, and
** loading recomputes them (a count that differs is a damaged file).
*/
#include "subgoal/sg.h"

#include "core/bytes.h"

#include <string.h>

static const uint8_t sg_magic[8] = {'A', 'S', 'T', 'A', 'R', 'S', 'G', 'G'}; /* no NUL */
#define SG_FORMAT 2u
#define SG_HEADER 72u

static uint64_t data_bytes(uint64_t n, uint64_t m) {
  const uint64_t raw = n + (n + 1) * 4 + n * 4 + m * 8;
  return (raw + 7) & ~(uint64_t)7;
}

static uint64_t file_checksum(const uint8_t *buf, size_t len) {
  uint64_t h = ASTAR__HASH_INIT;
  for (size_t i = 0; i < 64; i += 8) h = astar__hash_word(h, astar__get_le64(buf + i));
  for (size_t i = SG_HEADER; i + 8 <= len; i += 8)
    h = astar__hash_word(h, astar__get_le64(buf + i));
  return h;
}

astar_status astar_subgoal_save(const astar_subgoal *sg, void *buf, size_t cap, size_t *len) {
  if (!sg || !len) return ASTAR_INVALID_ARGUMENT;
  const uint64_t need64 = SG_HEADER + data_bytes(sg->n, sg->m);
  if (need64 > SIZE_MAX) return ASTAR_NO_MEMORY;
  const size_t need = (size_t)need64;
  *len = need;
  if (!buf || cap < need) return ASTAR_BUFFER_TOO_SMALL;
  uint8_t *p = buf;
  memset(p, 0, need);
  memcpy(p, sg_magic, sizeof sg_magic);
  astar__put_le32(p + 8, SG_FORMAT);
  astar__put_le32(p + 12, (uint32_t)sg->width);
  astar__put_le32(p + 16, (uint32_t)sg->height);
  astar__put_le32(p + 20, sg->levels_asked);
  astar__put_le32(p + 24, sg->nlevels);
  astar__put_le32(p + 28, sg->n);
  astar__put_le32(p + 32, sg->m);
  astar__put_le64(p + 40, astar__f64_bits(sg->straight));
  astar__put_le64(p + 48, astar__f64_bits(sg->diagonal));
  astar__put_le64(p + 56, sg->cells_sum);
  uint8_t *q = p + SG_HEADER;
  if (sg->n) memcpy(q, sg->level, sg->n);
  q += sg->n;
  for (uint32_t i = 0; i <= sg->n; i++, q += 4) astar__put_le32(q, sg->first[i]);
  for (uint32_t i = 0; i < sg->n; i++, q += 4) astar__put_le32(q, sg->nup[i]);
  for (uint32_t i = 0; i < sg->m; i++, q += 4) astar__put_le32(q, sg->adj[i]);
  for (uint32_t i = 0; i < sg->m; i++, q += 4) astar__put_le32(q, sg->amid[i]);
  astar__put_le64(p + 64, file_checksum(p, need));
  return ASTAR_OK;
}

/* Is every index of the loaded arrays in range? What the search needs to
** be memory-safe: offsets increasing from 0 to m, up counts within each
** list, neighbours < n and not the vertex itself, levels 1 .. nlevels. */
static bool in_range(const astar_subgoal *sg) {
  if (sg->first[0] != 0 || sg->first[sg->n] != sg->m) return false;
  for (uint32_t v = 0; v < sg->n; v++) {
    if (sg->first[v] > sg->first[v + 1]) return false;
    if (sg->nup[v] > sg->first[v + 1] - sg->first[v]) return false;
    if (sg->level[v] < 1 || sg->level[v] > sg->nlevels) return false;
    for (uint32_t i = sg->first[v]; i < sg->first[v + 1]; i++)
      if (sg->adj[i] >= sg->n || sg->adj[i] == v) return false;
  }
  return true;
}

astar_status astar_subgoal_load(astar_subgoal **out, const astar_grid *grid, const void *buf,
                                size_t len, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || (!buf && len > 0)) return ASTAR_INVALID_ARGUMENT;
  /* Format first (ASTAR_PARSE_ERROR), then whether it fits this grid
  ** (ASTAR_MISMATCH): the file checksum covers the header, so damage
  ** anywhere reads as malformed, not as "another grid". */
  const uint8_t *p = buf;
  if (len < SG_HEADER || memcmp(p, sg_magic, sizeof sg_magic) != 0) return ASTAR_PARSE_ERROR;
  if (astar__get_le32(p + 8) != SG_FORMAT || astar__get_le32(p + 36) != 0) return ASTAR_PARSE_ERROR;
  const uint32_t w = astar__get_le32(p + 12), h = astar__get_le32(p + 16);
  const uint32_t asked = astar__get_le32(p + 20), built = astar__get_le32(p + 24);
  const uint32_t n = astar__get_le32(p + 28), m = astar__get_le32(p + 32);
  if (w < 1 || h < 1 || w > ASTAR_GRID_MAX_SIDE || h > ASTAR_GRID_MAX_SIDE ||
      (uint64_t)w * h > ASTAR_GRID_MAX_CELLS || asked > SG_MAX_LEVELS || built < 1 ||
      built > SG_MAX_LEVELS || (asked && built > asked) || (uint64_t)n > (uint64_t)w * h)
    return ASTAR_PARSE_ERROR;
  if ((uint64_t)len != SG_HEADER + data_bytes(n, m)) return ASTAR_PARSE_ERROR;
  if (astar__get_le64(p + 64) != file_checksum(p, len)) return ASTAR_PARSE_ERROR;
  astar_options opt;
  astar_options_init(&opt);
  opt.straight_cost = astar__bits_f64(astar__get_le64(p + 40));
  opt.diagonal_cost = astar__bits_f64(astar__get_le64(p + 48));
  const double s = opt.straight_cost, d = opt.diagonal_cost;
  if (!(s > 0.0 && s <= ASTAR_OPTION_MAX && d > 0.0 && d <= ASTAR_OPTION_MAX && s <= d &&
        d < 2.0 * s))
    return ASTAR_PARSE_ERROR;
  if ((int32_t)w != grid->width || (int32_t)h != grid->height) return ASTAR_MISMATCH;
  const uint64_t sum = astar__grid_cells_checksum(grid);
  if (astar__get_le64(p + 56) != sum) return ASTAR_MISMATCH;
  if (grid->terrain) return ASTAR_UNSUPPORTED;

  astar_subgoal *sg;
  astar_status st = astar__sg_new(&sg, grid, &opt, asked, alloc);
  if (st != ASTAR_OK) return st;
  sg->cells_sum = sum;
  sg->nlevels = built;
  if (sg->n != n) {
    astar__sg_free(sg);
    return ASTAR_PARSE_ERROR;
  }
  const astar_allocator *a = &sg->alloc;
  sg->level = astar__malloc(a, (size_t)n + 1);
  sg->first = astar__malloc(a, ((size_t)n + 1) * 4);
  sg->nup = astar__malloc(a, ((size_t)n + 1) * 4);
  sg->adj = astar__malloc(a, ((size_t)m + 1) * 4);
  sg->amid = astar__malloc(a, ((size_t)m + 1) * 4);
  sg->m = m;
  if (!sg->level || !sg->first || !sg->nup || !sg->adj || !sg->amid) {
    astar__sg_free(sg);
    return ASTAR_NO_MEMORY;
  }
  const uint8_t *q = p + SG_HEADER;
  if (n) memcpy(sg->level, q, n);
  q += n;
  for (uint32_t i = 0; i <= n; i++, q += 4) sg->first[i] = astar__get_le32(q);
  for (uint32_t i = 0; i < n; i++, q += 4) sg->nup[i] = astar__get_le32(q);
  for (uint32_t i = 0; i < m; i++, q += 4) sg->adj[i] = astar__get_le32(q);
  for (uint32_t i = 0; i < m; i++, q += 4) sg->amid[i] = astar__get_le32(q);
  if (!in_range(sg)) {
    astar__sg_free(sg);
    return ASTAR_PARSE_ERROR;
  }
  if ((st = astar__sg_costs(sg)) != ASTAR_OK) {
    astar__sg_free(sg);
    return st;
  }
  *out = sg;
  return ASTAR_OK;
}
