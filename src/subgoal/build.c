/*
** subgoal/build.c -- building a subgoal graph (astar/subgoal.h): the rules
** it serves, the per-cell tables (subgoals, clearances), the clearance scan
** for direct-h-reachable subgoals, the simple subgoal graph (level 1), and
** the object's life: build, free, info, verify, fits.
**
** Subgoals (Uras, Hernandez and Koenig, ICAPS 2013): a passable cell with a
** blocked diagonal neighbour whose two cells beside it (the straight
** neighbours towards it) are passable -- a convex obstacle corner. Under
** the no-corner-cutting rule a taut optimal path bends only at such cells,
** so the subgoals plus start and goal carry every optimal path, and between
** consecutive ones the path is an octile line that needs no search.
*/
#include "subgoal/sg.h"

#include "search/query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void astar_subgoal_config_init(astar_subgoal_config *cfg) {
  if (!cfg) return;
  astar_options_init(&cfg->options);
  cfg->levels = 0;
}

/* Option values in their documented ranges (else ASTAR_INVALID_ARGUMENT). */
static bool costs_in_range(const astar_options *o) {
  const double s = o->straight_cost, d = o->diagonal_cost;
  return s > 0.0 && s <= ASTAR_OPTION_MAX && d > 0.0 && d <= ASTAR_OPTION_MAX &&
         (o->moves == 4 || o->moves == 8);
}

const char *astar_subgoal_unsupported_reason(const astar_grid *grid, const astar_options *opt) {
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  const double s = opt->straight_cost, d = opt->diagonal_cost;
  if (grid && grid->terrain)
    return "the grid has terrain costs; subgoal graphs need uniform costs (clear the terrain, "
           "or use A*)";
  if (opt->moves != 8) return "subgoal graphs need 8 moves; options.moves is 4 (use A*)";
  if (opt->corner != ASTAR_CORNER_NO_CUT)
    return "subgoal graphs need the no-corner-cutting rule (ASTAR_CORNER_NO_CUT); use A* for "
           "other rules";
  if (!(s <= d && d < 2.0 * s))
    return "subgoal graphs need straight <= diagonal < 2 x straight move costs (use A*)";
  return NULL;
}

/* ---- per-cell tables ------------------------------------------------------------- */

static size_t words_of(uint32_t ncells) {
  return (size_t)ncells / 64u + 1u;
}

astar_status astar__sg_cells(astar_subgoal *sg, const astar_grid *grid) {
  const astar_allocator *a = &sg->alloc;
  const uint32_t nc = grid->ncells;
  const int32_t s = grid->stride, w = grid->width, h = grid->height;
  const size_t nw = words_of(nc);
  size_t clr_bytes;
  sg->sgbits = astar__calloc(a, nw, sizeof *sg->sgbits);
  sg->sgrank = astar__calloc(a, nw, sizeof *sg->sgrank);
  sg->clr = astar__mul(nc, 4 * sizeof(uint16_t), &clr_bytes) ? astar__malloc(a, clr_bytes) : NULL;
  if (!sg->sgbits || !sg->sgrank || !sg->clr) return ASTAR_NO_MEMORY;
  /* Subgoals: a diagonal d blocked, its two straight components free. */
  uint32_t n = 0;
  for (int32_t y = 1; y <= h; y++)
    for (int32_t x = 1; x <= w; x++) {
      const uint32_t c = (uint32_t)(y * s + x);
      if (!grid->pass[c]) continue;
      const unsigned nb = grid->nb[c];
      bool corner = false;
      for (int d = 4; d < 8 && !corner; d++) {
        const int va = astar__dir_dy[d] < 0 ? ASTAR__N : ASTAR__S;
        const int hb = astar__dir_dx[d] > 0 ? ASTAR__E : ASTAR__W;
        corner = !((nb >> d) & 1u) && ((nb >> va) & 1u) && ((nb >> hb) & 1u);
      }
      if (corner) {
        sg->sgbits[c >> 6] |= UINT64_C(1) << (c & 63u);
        n++;
      }
    }
  uint32_t acc = 0;
  for (size_t i = 0; i < nw; i++) {
    sg->sgrank[i] = acc;
    acc += (uint32_t)__builtin_popcountll(sg->sgbits[i]);
  }
  sg->n = n;
  sg->cell = astar__malloc(a, ((size_t)n + 1) * sizeof *sg->cell);
  sg->xy = astar__malloc(a, ((size_t)n + 1) * sizeof *sg->xy);
  if (!sg->cell || !sg->xy) return ASTAR_NO_MEMORY;
  uint32_t k = 0;
  for (int32_t y = 1; y <= h; y++)
    for (int32_t x = 1; x <= w; x++) {
      const uint32_t c = (uint32_t)(y * s + x);
      if (!sg_is_subgoal(sg, c)) continue;
      sg->cell[k] = c;
      sg->xy[k++] = sg_pack(x, y);
    }
  /* Clearances: each ray swept from its far end; the stopper of cell c in
  ** direction d is the next cell n when n is blocked or a subgoal, else
  ** n's stopper one step further. */
  uint16_t *clr = sg->clr;
  memset(clr, 0, clr_bytes);
  for (int d = 0; d < 4; d++) {
    const int32_t dx = astar__dir_dx[d], dy = astar__dir_dy[d];
    const int32_t off = dy * s + dx;
    /* Visit cells so that c + off is always done before c. */
    const int32_t y0 = dy > 0 ? h : 1, y1 = dy > 0 ? 0 : h + 1, ys = dy > 0 ? -1 : 1;
    const int32_t x0 = dx > 0 ? w : 1, x1 = dx > 0 ? 0 : w + 1, xs = dx > 0 ? -1 : 1;
    for (int32_t y = y0; y != y1; y += ys)
      for (int32_t x = x0; x != x1; x += xs) {
        const uint32_t c = (uint32_t)(y * s + x), nx = (uint32_t)((int32_t)c + off);
        uint16_t v;
        if (!grid->pass[nx])
          v = 0;
        else if (sg_is_subgoal(sg, nx))
          v = SG_FLAG;
        else
          v = (uint16_t)(clr[(size_t)nx * 4 + (size_t)d] + 1u); /* keeps the flag */
        clr[(size_t)c * 4 + (size_t)d] = v;
      }
  }
  return ASTAR_OK;
}

/* ---- the scan -------------------------------------------------------------------------- */

uint32_t astar__sg_scan(const astar_subgoal *sg, const astar_grid *grid, uint32_t c,
                        uint32_t *out) {
  const int32_t s = grid->stride;
  const int32_t off[4] = {-s, 1, s, -1}; /* N E S W */
  const uint16_t *const clr = sg->clr;
  const uint8_t *const nbs = grid->nb;
  const uint16_t *cc = clr + (size_t)c * 4;
  uint32_t k = 0;
  for (int d = 0; d < 4; d++) {
    const uint16_t v = cc[d];
    if (v & SG_FLAG)
      out[k++] = sg_id(sg, (uint32_t)((int32_t)c + off[d] * (int32_t)((v & 0x7fffu) + 1u)));
  }
  /* Each quadrant: walk the diagonal; from each of its cells the straight
  ** rays along the quadrant's two components, each bounded by the shortest
  ** ray met so far on that side (the region beyond is reached at no
  ** greater cost through the subgoal or past the obstacle that ended it). */
  for (int d = 4; d < 8; d++) {
    const int va = astar__dir_dy[d] < 0 ? ASTAR__N : ASTAR__S;
    const int hb = astar__dir_dx[d] > 0 ? ASTAR__E : ASTAR__W;
    const unsigned need = 1u << d | 1u << va | 1u << hb;
    const int32_t offd = off[va] + off[hb], offa = off[va], offb = off[hb];
    uint32_t maxa = (cc[va] & 0x7fffu) + 1u, maxb = (cc[hb] & 0x7fffu) + 1u;
    uint32_t cur = c;
    while ((nbs[cur] & need) == need) {
      cur = (uint32_t)((int32_t)cur + offd);
      if (sg_is_subgoal(sg, cur)) {
        out[k++] = sg_id(sg, cur);
        break;
      }
      const uint16_t *cu = clr + (size_t)cur * 4;
      const uint32_t ka = (cu[va] & 0x7fffu) + 1u, kb = (cu[hb] & 0x7fffu) + 1u;
      if (ka < maxa) {
        if (cu[va] & SG_FLAG) out[k++] = sg_id(sg, (uint32_t)((int32_t)cur + offa * (int32_t)ka));
        maxa = ka;
      }
      if (kb < maxb) {
        if (cu[hb] & SG_FLAG) out[k++] = sg_id(sg, (uint32_t)((int32_t)cur + offb * (int32_t)kb));
        maxb = kb;
      }
    }
  }
  return k;
}

bool astar__sg_path_free(const astar_grid *grid, uint32_t a, uint32_t b, bool diag_first) {
  const int32_t s = grid->stride;
  const int32_t ay = (int32_t)(a / (uint32_t)s), ax = (int32_t)a - ay * s;
  const int32_t by = (int32_t)(b / (uint32_t)s), bx = (int32_t)b - by * s;
  const int32_t dx = bx - ax, dy = by - ay;
  const int32_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
  const int32_t k = adx < ady ? adx : ady, r = (adx < ady ? ady : adx) - k;
  const int va = dy < 0 ? ASTAR__N : ASTAR__S, hb = dx > 0 ? ASTAR__E : ASTAR__W;
  int dd = 0;
  while (dd < 8 && !(dd >= 4 && astar__dir_dx[dd] == (dx > 0 ? 1 : -1) &&
                     astar__dir_dy[dd] == (dy > 0 ? 1 : -1)))
    dd++;
  const int ds = adx > ady ? hb : va;
  const unsigned need = dd < 8 ? (1u << dd | 1u << va | 1u << hb) : 0u;
  const int32_t offd = (dy > 0 ? s : -s) + (dx > 0 ? 1 : -1);
  const int32_t offs = astar__dir_dy[ds] * s + astar__dir_dx[ds];
  uint32_t c = a;
  for (int phase = 0; phase < 2; phase++) {
    if ((phase == 0) == diag_first) {
      for (int32_t i = 0; i < k; i++) {
        if ((grid->nb[c] & need) != need) return false;
        c = (uint32_t)((int32_t)c + offd);
      }
    } else {
      for (int32_t i = 0; i < r; i++) {
        if (!((grid->nb[c] >> ds) & 1u)) return false;
        c = (uint32_t)((int32_t)c + offs);
      }
    }
  }
  return true;
}

/* ---- the simple subgoal graph ------------------------------------------------------------ */

static int cmp_u32(const void *x, const void *y) {
  const uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return (a > b) - (a < b);
}

/* Arcs between every subgoal and those its scan finds, in both directions,
** each list sorted and without repeats. */
static astar_status build_ssg(astar_subgoal *sg, const astar_grid *grid) {
  const astar_allocator *a = &sg->alloc;
  const uint32_t n = sg->n;
  astar_status st = ASTAR_NO_MEMORY;
  uint32_t *found = astar__malloc(a, ((size_t)n + 1) * sizeof *found);
  uint32_t *deg = astar__calloc(a, (size_t)n + 1, sizeof *deg);
  size_t pcap = 1024, plen = 0;
  uint32_t *pairs = astar__malloc(a, pcap * 2 * sizeof *pairs);
  if (!found || !deg || !pairs) goto out;
  for (uint32_t u = 0; u < n; u++) {
    const uint32_t k = astar__sg_scan(sg, grid, sg->cell[u], found);
    if (plen + k > pcap) {
      size_t ncap = pcap;
      while (plen + k > ncap) ncap *= 2;
      uint32_t *np = astar__malloc(a, ncap * 2 * sizeof *np);
      if (!np) goto out;
      if (plen) memcpy(np, pairs, plen * 2 * sizeof *np);
      astar__free(a, pairs, pcap * 2 * sizeof *pairs);
      pairs = np;
      pcap = ncap;
    }
    for (uint32_t i = 0; i < k; i++) {
      pairs[2 * plen] = u;
      pairs[2 * plen + 1] = found[i];
      plen++;
      deg[u]++;
      deg[found[i]]++;
    }
  }
  if (2 * (uint64_t)plen >= UINT32_MAX) goto out; /* more arcs than the format holds */
  sg->first = astar__malloc(a, ((size_t)n + 1) * sizeof *sg->first);
  sg->nup = astar__malloc(a, ((size_t)n + 1) * sizeof *sg->nup);
  sg->level = astar__malloc(a, (size_t)n + 1);
  uint32_t *adj = astar__malloc(a, (2 * plen + 1) * sizeof *adj);
  if (!sg->first || !sg->nup || !sg->level || !adj) {
    astar__free(a, adj, (2 * plen + 1) * sizeof *adj);
    goto out;
  }
  uint32_t acc = 0;
  for (uint32_t v = 0; v < n; v++) {
    sg->first[v] = acc;
    acc += deg[v];
    deg[v] = sg->first[v]; /* fill cursor */
  }
  sg->first[n] = acc;
  for (size_t i = 0; i < plen; i++) {
    const uint32_t u = pairs[2 * i], v = pairs[2 * i + 1];
    adj[deg[u]++] = v;
    adj[deg[v]++] = u;
  }
  /* Sort and drop repeats (pairs each end found), compacting in place. */
  uint32_t w = 0;
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t b = sg->first[v], e = sg->first[v + 1];
    if (e - b > 1) qsort(adj + b, e - b, sizeof *adj, cmp_u32);
    sg->first[v] = w;
    for (uint32_t i = b; i < e; i++)
      if (i == b || adj[i] != adj[i - 1]) adj[w++] = adj[i];
    sg->nup[v] = w - sg->first[v];
    sg->level[v] = 1;
  }
  sg->first[n] = w;
  /* Shrink to the entries kept. */
  sg->adj = astar__malloc(a, ((size_t)w + 1) * sizeof *sg->adj);
  if (sg->adj) memcpy(sg->adj, adj, (size_t)w * sizeof *adj);
  astar__free(a, adj, (2 * plen + 1) * sizeof *adj);
  if (!sg->adj) goto out;
  sg->m = w;
  sg->nlevels = 1;
  st = ASTAR_OK;
out:
  astar__free(a, found, ((size_t)n + 1) * sizeof *found);
  astar__free(a, deg, ((size_t)n + 1) * sizeof *deg);
  astar__free(a, pairs, pcap * 2 * sizeof *pairs);
  return st;
}

/* ---- the object ------------------------------------------------------------------------ */

size_t astar__sg_bytes(const astar_subgoal *sg) {
  const size_t n1 = (size_t)sg->n + 1, nw = words_of(sg->ncells);
  /* cell, xy, first, nup (4 bytes), level (1) per vertex; adj; clr; bitmap and ranks */
  return sizeof *sg + n1 * (4 + 4 + 4 + 4 + 1) + ((size_t)sg->m + 1) * (4 + 4 + 8) +
         (size_t)sg->ncells * 8 + nw * (8 + 4);
}

void astar__sg_free(astar_subgoal *sg) {
  if (!sg) return;
  const astar_allocator a = sg->alloc;
  const size_t n1 = (size_t)sg->n + 1, nw = words_of(sg->ncells);
  astar__free(&a, sg->cell, n1 * 4);
  astar__free(&a, sg->xy, n1 * 4);
  astar__free(&a, sg->level, n1);
  astar__free(&a, sg->first, n1 * 4);
  astar__free(&a, sg->nup, n1 * 4);
  astar__free(&a, sg->adj, ((size_t)sg->m + 1) * 4);
  astar__free(&a, sg->amid, ((size_t)sg->m + 1) * 4);
  astar__free(&a, sg->acost, ((size_t)sg->m + 1) * 8);
  astar__free(&a, sg->clr, (size_t)sg->ncells * 8);
  astar__free(&a, sg->sgbits, nw * 8);
  astar__free(&a, sg->sgrank, nw * 4);
  astar__free(&a, sg, sizeof *sg);
}

void astar_subgoal_free(astar_subgoal *sg) {
  astar__sg_free(sg);
}

astar_status astar__sg_new(astar_subgoal **out, const astar_grid *grid, const astar_options *opt,
                           uint32_t levels, const astar_allocator *alloc) {
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_subgoal *sg = astar__malloc(&a, sizeof *sg);
  if (!sg) return ASTAR_NO_MEMORY;
  memset(sg, 0, sizeof *sg);
  sg->alloc = a;
  sg->grid = grid;
  sg->version = grid->version;
  sg->width = grid->width;
  sg->height = grid->height;
  sg->stride = grid->stride;
  sg->ncells = grid->ncells;
  sg->straight = opt->straight_cost;
  sg->diagonal = opt->diagonal_cost;
  double cost[8];
  astar__move_costs(grid, opt, cost);
  sg->cs = cost[ASTAR__N];
  sg->cd = cost[ASTAR__NE];
  sg->levels_asked = levels;
  const astar_status st = astar__sg_cells(sg, grid);
  if (st != ASTAR_OK) {
    astar__sg_free(sg);
    return st;
  }
  *out = sg;
  return ASTAR_OK;
}

astar_status astar_subgoal_build(astar_subgoal **out, const astar_grid *grid,
                                 const astar_subgoal_config *cfg, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  astar_subgoal_config defaults;
  if (!cfg) {
    astar_subgoal_config_init(&defaults);
    cfg = &defaults;
  }
  if (!grid || cfg->levels > SG_MAX_LEVELS || !costs_in_range(&cfg->options))
    return ASTAR_INVALID_ARGUMENT;
  if (astar_subgoal_unsupported_reason(grid, &cfg->options)) return ASTAR_UNSUPPORTED;
  astar_subgoal *sg;
  astar_status st = astar__sg_new(&sg, grid, &cfg->options, cfg->levels, alloc);
  if (st != ASTAR_OK) return st;
  st = build_ssg(sg, grid);
  if (st == ASTAR_OK) st = astar__sg_lines(sg, grid);
  if (st == ASTAR_OK && cfg->levels != 1) st = astar__sg_levels(sg, grid);
  if (st == ASTAR_OK && !sg->acost) st = astar__sg_costs(sg);
  if (st != ASTAR_OK) {
    astar__sg_free(sg);
    return st;
  }
  sg->cells_sum = astar__grid_cells_checksum(grid);
  *out = sg;
  return ASTAR_OK;
}

astar_status astar_subgoal_get_info(const astar_subgoal *sg, astar_subgoal_info *info) {
  if (!sg || !info) return ASTAR_INVALID_ARGUMENT;
  memset(info, 0, sizeof *info);
  info->subgoals = sg->n;
  info->arcs = sg->m / 2;
  info->levels = sg->nlevels;
  uint64_t top_entries = 0;
  for (uint32_t v = 0; v < sg->n; v++)
    if (sg->level[v] == sg->nlevels) {
      info->top_subgoals++;
      top_entries += sg->nup[v];
    }
  info->top_arcs = top_entries / 2;
  info->bytes = astar__sg_bytes(sg);
  return ASTAR_OK;
}

astar_status astar__subgoal_fits(const astar_subgoal *sg, const astar_grid *grid,
                                 const astar_options *opt) {
  if (!sg || !grid) return ASTAR_INVALID_ARGUMENT;
  if (sg->grid != grid || sg->width != grid->width || sg->height != grid->height)
    return ASTAR_MISMATCH;
  if (opt && (opt->moves != 8 || opt->corner != ASTAR_CORNER_NO_CUT ||
              opt->straight_cost != sg->straight || opt->diagonal_cost != sg->diagonal))
    return ASTAR_MISMATCH;
  return sg->version != grid->version ? ASTAR_STALE : ASTAR_OK;
}

astar_status astar_subgoal_verify(const astar_subgoal *sg, const astar_grid *grid) {
  if (!sg || !grid) return ASTAR_INVALID_ARGUMENT;
  const astar_status fit = astar__subgoal_fits(sg, grid, NULL);
  if (fit != ASTAR_OK) return fit;
  astar_subgoal_config cfg;
  astar_subgoal_config_init(&cfg);
  cfg.options.straight_cost = sg->straight;
  cfg.options.diagonal_cost = sg->diagonal;
  cfg.levels = sg->levels_asked;
  astar_subgoal *re;
  const astar_status st = astar_subgoal_build(&re, grid, &cfg, &sg->alloc);
  if (st == ASTAR_UNSUPPORTED || st == ASTAR_INVALID_ARGUMENT) return ASTAR_MISMATCH;
  if (st != ASTAR_OK) return st;
  bool same = re->n == sg->n && re->m == sg->m && re->nlevels == sg->nlevels &&
              re->cells_sum == sg->cells_sum;
  if (same) {
    const size_t n = sg->n;
    same = memcmp(re->level, sg->level, n) == 0 && memcmp(re->first, sg->first, (n + 1) * 4) == 0 &&
           memcmp(re->nup, sg->nup, n * 4) == 0 &&
           memcmp(re->adj, sg->adj, (size_t)sg->m * 4) == 0 &&
           memcmp(re->amid, sg->amid, (size_t)sg->m * 4) == 0;
  }
  astar__sg_free(re);
  return same ? ASTAR_OK : ASTAR_PARSE_ERROR;
}
