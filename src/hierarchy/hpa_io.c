/*
** hpa_io.c -- saving and loading the HPA* hierarchy (astar/hierarchy.h) in
** a portable, versioned, checked byte format, and the structural check a
** loaded graph passes before any search may use it.
**
** Layout (little-endian; f64 = IEEE-754 bits as u64):
**    0  magic "ASTARHPA"                                 8 bytes
**    8  format version (1)                               u32
**   12  width, height                                    2 x i32
**   20  cluster_size, levels, ratio, wide_entrance       4 x i32
**   36  smooth, moves, corner                            3 x u32
**   48  straight cost, diagonal cost                     2 x f64
**   64  checksum of the grid's cells and terrain         u64
**   72  clusters, level by level, row-major:
**         n (u32); level 1: crossings m (u32), entrances (u32);
**         n cells (u32, y * width + x, increasing); n * n costs (f64);
**         level 1: n crossing counts (u32), m cells across (u32),
**                  m costs out (f64), m costs in (f64)
**  end  checksum of every byte before it                 u64
** The content is canonical (a function of grid and settings only), so an
** updated object saves the same bytes as a fresh build.
*/
#include "core/bytes.h"
#include "hierarchy/hpa.h"

#include <string.h>

#define HPA_HEADER 72
static const uint8_t hpa_magic[8] = {'A', 'S', 'T', 'A', 'R', 'H', 'P', 'A'};

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double bitsd(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static uint64_t bytes_sum(const uint8_t *p, size_t n) {
  uint64_t h = UINT64_C(0xCBF29CE484222325);
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= UINT64_C(0x100000001B3);
  }
  return h ^ (h >> 31);
}

/* A writer that counts when out of room (w->p NULL). */
typedef struct writer {
  uint8_t *p;
  size_t n;
} writer;
static void w32(writer *w, uint32_t v) {
  if (w->p) astar__put_le32(w->p + w->n, v);
  w->n += 4;
}
static void w64(writer *w, uint64_t v) {
  if (w->p) astar__put_le64(w->p + w->n, v);
  w->n += 8;
}

static void write_all(const astar_hpa *h, writer *w) {
  const astar_hpa_options *o = &h->hopt;
  for (int i = 0; i < 8; i++) {
    if (w->p) w->p[w->n] = hpa_magic[i];
    w->n++;
  }
  w32(w, 1);
  w32(w, (uint32_t)h->width);
  w32(w, (uint32_t)h->height);
  w32(w, (uint32_t)o->cluster_size);
  w32(w, (uint32_t)o->levels);
  w32(w, (uint32_t)o->ratio);
  w32(w, (uint32_t)o->wide_entrance);
  w32(w, o->smooth ? 1u : 0u);
  w32(w, (uint32_t)h->moves);
  w32(w, (uint32_t)h->corner);
  w64(w, dbits(h->sc));
  w64(w, dbits(h->dc));
  w64(w, astar__hpa_grid_sum(h->grid));
  for (int l = 0; l < h->levels; l++) {
    const hpa_level *L = &h->lv[l];
    const uint32_t nc = (uint32_t)(L->ncx * L->ncy);
    for (uint32_t c = 0; c < nc; c++) {
      const hpa_cluster *cl = &L->cl[c];
      const uint32_t n = cl->n, m = l == 0 && n ? cl->xoff[n] : 0;
      w32(w, n);
      if (l == 0) {
        w32(w, m);
        w32(w, cl->ent);
      }
      for (uint32_t i = 0; i < n; i++) w32(w, cl->cell[i]);
      for (size_t i = 0; i < (size_t)n * n; i++) w64(w, dbits(cl->cost[i]));
      if (l == 0) {
        for (uint32_t i = 0; i < n; i++) w32(w, cl->xoff[i + 1] - cl->xoff[i]);
        for (uint32_t i = 0; i < m; i++) w32(w, cl->xcell[i]);
        for (uint32_t i = 0; i < m; i++) w64(w, dbits(cl->xout[i]));
        for (uint32_t i = 0; i < m; i++) w64(w, dbits(cl->xin[i]));
      }
    }
  }
}

astar_status astar_hpa_save(const astar_hpa *h, void *buf, size_t cap, size_t *len) {
  if (!h || !len || !h->grid) return ASTAR_INVALID_ARGUMENT;
  writer w = {NULL, 0};
  write_all(h, &w);
  const size_t need = w.n + 8;
  *len = need;
  if (!buf || cap < need) return ASTAR_BUFFER_TOO_SMALL;
  w.p = buf;
  w.n = 0;
  write_all(h, &w);
  astar__put_le64(w.p + w.n, bytes_sum(w.p, w.n));
  return ASTAR_OK;
}

bool astar__hpa_check(const astar_hpa *h) {
  const uint32_t W = (uint32_t)h->width;
  for (int l = 0; l < h->levels; l++) {
    const hpa_level *L = &h->lv[l];
    const uint32_t nc = (uint32_t)(L->ncx * L->ncy);
    for (uint32_t k = 0; k < L->goff[nc]; k++)
      if (L->gid[k] == HPA_NONE) return false;
    for (uint32_t c = 0; c < nc; c++) {
      const hpa_cluster *cl = &L->cl[c];
      for (size_t i = 0; i < (size_t)cl->n * cl->n; i++)
        if (!(cl->cost[i] >= 0)) return false; /* NaN or negative */
    }
  }
  for (uint32_t v = 0; v < h->nnodes; v++) {
    const int32_t vx = (int32_t)(h->ncell[v] % W), vy = (int32_t)(h->ncell[v] / W);
    for (int l = 0; l < h->nlevel[v]; l++)
      if (h->lv[l].lidx[v] == HPA_NONE) return false;
    for (uint32_t a = h->xoff[v]; a < h->xoff[v + 1]; a++) {
      const uint32_t t = h->xto[a];
      if (t == HPA_NONE || !(h->xout[a] >= 0) || !(h->xin[a] >= 0)) return false;
      const int32_t tx = (int32_t)(h->ncell[t] % W), ty = (int32_t)(h->ncell[t] / W);
      if (tx - vx > 1 || vx - tx > 1 || ty - vy > 1 || vy - ty > 1) return false;
      if (astar__hpa_cluster_of(h, 0, tx, ty) == astar__hpa_cluster_of(h, 0, vx, vy)) return false;
      for (int l = 0; l < h->levels; l++) {
        if (astar__hpa_cluster_of(h, l, tx, ty) == astar__hpa_cluster_of(h, l, vx, vy)) break;
        if (h->lv[l].lidx[t] == HPA_NONE || h->lv[l].lidx[v] == HPA_NONE) return false;
      }
    }
  }
  return true;
}

/* A reader that fails (r->bad) instead of reading past the end. */
typedef struct reader {
  const uint8_t *p;
  size_t n, at;
  bool bad;
} reader;
static uint32_t r32(reader *r) {
  if (r->bad || r->n - r->at < 4) {
    r->bad = true;
    return 0;
  }
  r->at += 4;
  return astar__get_le32(r->p + r->at - 4);
}
static uint64_t r64(reader *r) {
  if (r->bad || r->n - r->at < 8) {
    r->bad = true;
    return 0;
  }
  r->at += 8;
  return astar__get_le64(r->p + r->at - 8);
}

/* Read one cluster (rect x0..x1, y0..y1) into *cl: ASTAR_OK, PARSE_ERROR or NO_MEMORY. */
static astar_status read_cluster(astar_hpa *h, reader *r, int l, int32_t x0, int32_t y0, int32_t x1,
                                 int32_t y1, hpa_cluster *cl) {
  const uint32_t W = (uint32_t)h->width;
  const uint32_t n = r32(r);
  const uint32_t m = l == 0 ? r32(r) : 0;
  const uint32_t ent = l == 0 ? r32(r) : 0;
  const uint64_t area = (uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1);
  if (r->bad || n > area || m > 8 * (uint64_t)n) return ASTAR_PARSE_ERROR;
  /* Enough bytes left for what the counts announce (before allocating). */
  const uint64_t need =
      4 * (uint64_t)n + 8 * (uint64_t)n * n + (l == 0 ? 4 * (uint64_t)n + 20 * (uint64_t)m : 0);
  if (need > r->n - r->at) return ASTAR_PARSE_ERROR;
  memset(cl, 0, sizeof *cl);
  cl->ent = ent;
  if (n == 0) return ASTAR_OK; /* m <= 8 n: no crossings either */
  cl->n = n;
  cl->cell = astar__hpa_alloc(h, n, sizeof *cl->cell);
  cl->cost = astar__hpa_alloc(h, (size_t)n * n, sizeof *cl->cost);
  if (l == 0) {
    cl->xoff = astar__hpa_alloc(h, n + 1, sizeof *cl->xoff);
    cl->xcell = astar__hpa_alloc(h, m ? m : 1, sizeof *cl->xcell);
    cl->xout = astar__hpa_alloc(h, m ? m : 1, sizeof *cl->xout);
    cl->xin = astar__hpa_alloc(h, m ? m : 1, sizeof *cl->xin);
  }
  const bool ok =
      cl->cell && cl->cost && (l != 0 || (cl->xoff && cl->xcell && cl->xout && cl->xin));
  if (!ok || (l == 0 && m == 0)) { /* every level-1 node has a crossing */
    astar__hpa_free(h, cl->cell, n, sizeof *cl->cell);
    astar__hpa_free(h, cl->cost, (size_t)n * n, sizeof *cl->cost);
    astar__hpa_free(h, cl->xoff, n + 1, sizeof *cl->xoff);
    astar__hpa_free(h, cl->xcell, m ? m : 1, sizeof *cl->xcell);
    astar__hpa_free(h, cl->xout, m ? m : 1, sizeof *cl->xout);
    astar__hpa_free(h, cl->xin, m ? m : 1, sizeof *cl->xin);
    memset(cl, 0, sizeof *cl);
    return ok ? ASTAR_PARSE_ERROR : ASTAR_NO_MEMORY;
  }
  astar_status st = ASTAR_OK;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t c = r32(r);
    const int32_t x = (int32_t)(c % W), y = (int32_t)(c / W);
    if (c / W >= (uint32_t)h->height || x < x0 || x > x1 || y < y0 || y > y1 ||
        (i > 0 && c <= cl->cell[i - 1]))
      st = ASTAR_PARSE_ERROR;
    cl->cell[i] = c;
  }
  for (size_t i = 0; i < (size_t)n * n; i++) cl->cost[i] = bitsd(r64(r));
  if (l == 0) {
    uint64_t acc = 0;
    cl->xoff[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
      const uint32_t k = r32(r);
      if (k == 0 || k > 8) st = ASTAR_PARSE_ERROR;
      acc += k;
      cl->xoff[i + 1] = (uint32_t)(acc > m ? m : acc);
    }
    if (acc != m) st = ASTAR_PARSE_ERROR;
    cl->xoff[n] = m; /* the block sizes cluster_clear frees by */
    for (uint32_t i = 0; i < m; i++) {
      cl->xcell[i] = r32(r);
      if (cl->xcell[i] / W >= (uint32_t)h->height) st = ASTAR_PARSE_ERROR;
    }
    for (uint32_t i = 0; i < m; i++) cl->xout[i] = bitsd(r64(r));
    for (uint32_t i = 0; i < m; i++) cl->xin[i] = bitsd(r64(r));
  }
  if (r->bad) st = ASTAR_PARSE_ERROR;
  return st;
}

/* The header's settings and rules, checked for range (not yet against a
** grid): ASTAR_OK or ASTAR_PARSE_ERROR. len >= HPA_HEADER + 8. */
static astar_status read_header(const uint8_t *p, astar_options *o, astar_hpa_options *ho) {
  astar_options_init(o);
  o->moves = (int)astar__get_le32(p + 40);
  o->corner = (astar_corner)astar__get_le32(p + 44);
  o->straight_cost = bitsd(astar__get_le64(p + 48));
  o->diagonal_cost = bitsd(astar__get_le64(p + 56));
  ho->cluster_size = (int32_t)astar__get_le32(p + 20);
  ho->levels = (int32_t)astar__get_le32(p + 24);
  ho->ratio = (int32_t)astar__get_le32(p + 28);
  ho->wide_entrance = (int32_t)astar__get_le32(p + 32);
  const uint32_t smooth = astar__get_le32(p + 36);
  if (smooth > 1 || astar__get_le32(p + 44) > (uint32_t)ASTAR_CORNER_NEVER ||
      astar_options_validate(o) != ASTAR_OK)
    return ASTAR_PARSE_ERROR;
  if (o->moves == 4 && o->corner != ASTAR_CORNER_NEVER) /* how 4 moves are saved */
    return ASTAR_PARSE_ERROR;
  ho->smooth = smooth == 1;
  return ASTAR_OK;
}

/* The magic, the format version and the file checksum. */
static bool well_formed(const uint8_t *p, size_t len) {
  return len >= HPA_HEADER + 8 && memcmp(p, hpa_magic, 8) == 0 && astar__get_le32(p + 8) == 1 &&
         astar__get_le64(p + len - 8) == bytes_sum(p, len - 8);
}

/* Do the movement rules of o (valid) give the abstract costs a hierarchy
** built under `file` holds? Those a build reads: moves, the corner rule
** (4 moves: none), the straight cost and, with 8 moves, the diagonal one. */
static bool same_rules(const astar_options *file, const astar_options *o) {
  const astar_corner corner = o->moves == 4 ? ASTAR_CORNER_NEVER : o->corner;
  return file->moves == o->moves && file->corner == corner &&
         dbits(file->straight_cost) == dbits(o->straight_cost) &&
         (o->moves == 4 || dbits(file->diagonal_cost) == dbits(o->diagonal_cost));
}

astar_status astar_hpa_file_options(const void *buf, size_t len, astar_options *opt,
                                    astar_hpa_options *hopt) {
  if (!buf) return ASTAR_INVALID_ARGUMENT;
  if (!well_formed(buf, len)) return ASTAR_PARSE_ERROR;
  astar_options o;
  astar_hpa_options ho;
  const astar_status st = read_header(buf, &o, &ho);
  if (st != ASTAR_OK) return st;
  if (opt) *opt = o;
  if (hopt) *hopt = ho;
  return ASTAR_OK;
}

astar_status astar_hpa_load(astar_hpa **out, const astar_grid *grid, const astar_options *opt,
                            const void *buf, size_t len, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || (!buf && len)) return ASTAR_INVALID_ARGUMENT;
  astar_options want;
  astar_options_init(&want);
  if (opt) {
    if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
    want = *opt;
  }
  /* What a build refuses, a load does too: the abstract costs cannot hold it. */
  if (want.turn_penalty > 0 || want.layers || want.nlayers || want.knowledge ||
      want.terrain_scale != 1.0)
    return ASTAR_UNSUPPORTED;
  const uint8_t *p = buf;
  if (!well_formed(p, len)) return ASTAR_PARSE_ERROR;
  astar_options o;
  astar_hpa_options ho;
  astar_status st = read_header(p, &o, &ho);
  if (st != ASTAR_OK) return st;
  if ((int32_t)astar__get_le32(p + 12) != grid->width ||
      (int32_t)astar__get_le32(p + 16) != grid->height || !same_rules(&o, &want))
    return ASTAR_MISMATCH;
  astar_hpa *h;
  st = astar__hpa_create(&h, grid, &o, &ho, alloc);
  if (st == ASTAR_INVALID_ARGUMENT || st == ASTAR_UNSUPPORTED) return ASTAR_PARSE_ERROR;
  if (st != ASTAR_OK) return st;
  if (astar__get_le64(p + 64) != astar__hpa_grid_sum(grid)) {
    astar_hpa_free(h);
    return ASTAR_MISMATCH;
  }
  reader r = {p, len - 8, HPA_HEADER, false};
  for (int l = 0; l < h->levels && st == ASTAR_OK; l++) {
    hpa_level *L = &h->lv[l];
    for (int32_t cy = 0; cy < L->ncy && st == ASTAR_OK; cy++)
      for (int32_t cx = 0; cx < L->ncx && st == ASTAR_OK; cx++) {
        const int32_t x0 = cx * L->side, y0 = cy * L->side;
        const int32_t x1 = x0 + L->side < h->width ? x0 + L->side - 1 : h->width - 1;
        const int32_t y1 = y0 + L->side < h->height ? y0 + L->side - 1 : h->height - 1;
        st = read_cluster(h, &r, l, x0, y0, x1, y1, &L->cl[cy * L->ncx + cx]);
      }
  }
  if (st == ASTAR_OK && r.at != r.n) st = ASTAR_PARSE_ERROR;
  if (st == ASTAR_OK) st = astar__hpa_assemble(h);
  if (st == ASTAR_OK && !astar__hpa_check(h)) st = ASTAR_PARSE_ERROR;
  if (st != ASTAR_OK) {
    astar_hpa_free(h);
    return st;
  }
  *out = h;
  return ASTAR_OK;
}
