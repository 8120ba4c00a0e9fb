/*
** fuzz/make_seeds.c -- writes seeds made from real map files for the fuzz
** targets whose input is not a plain copy of a file: crops of each map,
** rendered in each target's format (with headers drawn from a fixed-seed
** generator, so the same maps always give the same seeds). Not a fuzzer:
** fuzz/seed.sh runs it before minimising the corpora.
**
**   fuzz_make_seeds OUT_DIR MAP...
**
** writes, for each map and crop n, OUT_DIR/<target>/<map>-<n>:
**   search    a 16-byte fuzz_search header, then the crop as a Moving AI or
**             ASCII text
**   jps_plus  an 8-byte fuzz_jps_plus header, the crop's cells as bits, then
**             what astar_jps_plus_save makes of the crop
**   ascii_map the crop as an ASCII map with an 'S' and a 'G'
**   hex_map   the crop's cells as a hex map (the four shapes in turn)
**   dimacs    the crop's 8-connected graph as .gr, form feed, .co (cell
**             positions), form feed, .p2p (a few queries): fuzz_dimacs's input
** (the harnesses describe their layouts). A map is any text astar_parse_map
** reads.
*/
#include <astar/astar.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sides of the square crops taken from each map. */
static const int32_t crop_sides[] = {6, 12, 24, 40};
#define NSIDES (sizeof crop_sides / sizeof crop_sides[0])

/* A small xorshift generator: fixed seeds, same output everywhere. */
static uint32_t next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)(*s >> 16);
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *grown = realloc(buf, cap * 2);
      if (!grown) free(buf);
      buf = grown;
      cap *= 2;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

static int write_file(const char *path, const void *a, size_t na, const void *b, size_t nb) {
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  const int ok = fwrite(a, 1, na, f) == na && (nb == 0 || fwrite(b, 1, nb, f) == nb);
  return fclose(f) == 0 && ok;
}

/* The w x h crop of g at (x0, y0) as a new grid (terrain kept). */
static astar_grid *crop(const astar_grid *g, int32_t x0, int32_t y0, int32_t w, int32_t h) {
  astar_grid *c = NULL;
  if (astar_grid_new(&c, w, h, NULL) != ASTAR_OK) return NULL;
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      astar_grid_set_passable(c, x, y, astar_grid_passable(g, x0 + x, y0 + y));
      const float t = astar_grid_terrain(g, x0 + x, y0 + y);
      if (t != 1.0f) astar_grid_set_terrain(c, x, y, t);
    }
  }
  return c;
}

/* The grid as a map text: Moving AI (no terrain, moving_ai set) or ASCII
** (terrain as digits). Returns the length written to buf (cap bytes). */
static size_t print_map(const astar_grid *g, int moving_ai, char *buf, size_t cap) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  size_t at = 0;
  if (moving_ai)
    at = (size_t)snprintf(buf, cap, "type octile\nheight %d\nwidth %d\nmap\n", (int)h, (int)w);
  for (int32_t y = 0; y < h && at + (size_t)w + 1 < cap; y++) {
    for (int32_t x = 0; x < w; x++) {
      const float t = astar_grid_terrain(g, x, y);
      char ch = moving_ai ? '.' : ' ';
      if (!astar_grid_passable(g, x, y))
        ch = moving_ai ? '@' : '#';
      else if (t != 1.0f)
        ch = (char)('0' + (int)t);
      buf[at++] = ch;
    }
    buf[at++] = '\n';
  }
  return at;
}

/* The jps_plus seed of crop c: header, bits, saved table. */
static int jps_plus_seed(const char *path, const astar_grid *c, uint64_t *rng) {
  const int32_t w = astar_grid_width(c), h = astar_grid_height(c);
  astar_jps_plus *pre = NULL;
  if (astar_jps_plus_new(&pre, c, NULL) != ASTAR_OK) return 1; /* terrain: no seed */
  size_t len = 0;
  astar_jps_plus_save(pre, NULL, 0, &len);
  uint8_t *saved = malloc(len);
  const size_t nbits = ((size_t)w * (size_t)h + 7) / 8;
  uint8_t *head = calloc(8 + nbits, 1);
  int ok = saved && head && astar_jps_plus_save(pre, saved, len, &len) == ASTAR_OK;
  if (ok) {
    head[0] = (uint8_t)(next(rng) % 8);
    head[1] = (uint8_t)(w - 1);
    head[2] = (uint8_t)(h - 1);
    for (int i = 3; i < 8; i++) head[i] = (uint8_t)next(rng);
    for (int32_t i = 0; i < w * h; i++)
      if (!astar_grid_passable(c, i % w, i / w)) head[8 + i / 8] |= (uint8_t)(1u << (i % 8));
    ok = write_file(path, head, 8 + nbits, saved, len);
  }
  free(saved);
  free(head);
  astar_jps_plus_free(pre);
  return ok;
}

/* The search seed of crop c: a header of random choices, then the text. */
static int search_seed(const char *path, const astar_grid *c, int moving_ai, uint64_t *rng) {
  static char text[1 << 16];
  uint8_t head[16];
  for (int i = 0; i < 16; i++) head[i] = (uint8_t)next(rng);
  head[6] = (uint8_t)(next(rng) % 220); /* mostly no expansion limit */
  const size_t len = print_map(c, moving_ai && !astar_grid_has_terrain(c), text, sizeof text);
  return write_file(path, head, sizeof head, text, len);
}

/* The passable cells of c, the first and the last in row order, or
** (-1, -1) when there are none. */
static void ends(const astar_grid *c, astar_point *first, astar_point *last) {
  const int32_t w = astar_grid_width(c), h = astar_grid_height(c);
  first->x = first->y = last->x = last->y = -1;
  for (int32_t i = 0; i < w * h; i++) {
    if (!astar_grid_passable(c, i % w, i / w)) continue;
    if (first->x < 0) first->x = i % w, first->y = i / w;
    last->x = i % w, last->y = i / w;
  }
}

/* The ascii_map seed: the crop with 'S' and 'G' at its two ends. */
static int ascii_seed(const char *path, const astar_grid *c) {
  static char text[1 << 16];
  const int32_t w = astar_grid_width(c);
  size_t len = print_map(c, 0, text, sizeof text);
  astar_point s, t;
  ends(c, &s, &t);
  if (s.x >= 0 && (s.x != t.x || s.y != t.y)) {
    text[(size_t)s.y * ((size_t)w + 1) + (size_t)s.x] = 'S';
    text[(size_t)t.y * ((size_t)w + 1) + (size_t)t.x] = 'G';
  }
  return write_file(path, text, len, NULL, 0);
}

/* The hex_map seed: the crop's cells as hexagons, shape number k % 4. */
static int hex_seed(const char *path, const astar_grid *c, size_t k) {
  static const char *const shapes[4] = {"pointy odd-r", "pointy even-r", "flat odd-q",
                                        "flat even-q"};
  static char text[1 << 17];
  const int32_t w = astar_grid_width(c), h = astar_grid_height(c);
  size_t at =
      (size_t)snprintf(text, sizeof text, "; a crop of a real map\nhex %s\n", shapes[k % 4]);
  for (int32_t y = 0; y < h && at + 2 * (size_t)w + 2 < sizeof text; y++) {
    if (y % 2) text[at++] = ' '; /* the shoved rows, indented */
    for (int32_t x = 0; x < w; x++) {
      const float t = astar_grid_terrain(c, x, y);
      char ch = astar_grid_passable(c, x, y) ? '.' : '#';
      if (ch == '.' && t != 1.0f) ch = (char)('0' + (int)t);
      text[at++] = ch;
      text[at++] = ' ';
    }
    text[at++] = '\n';
  }
  return write_file(path, text, at, NULL, 0);
}

/* The dimacs seed: the crop's 8-connected graph (Moving AI moves, costs
** 1000 and 1414) as .gr, its cell positions as .co and three queries as
** .p2p, separated by form feeds. */
static int dimacs_seed(const char *path, const astar_grid *c, uint64_t *rng) {
  static char text[1 << 20];
  const int32_t w = astar_grid_width(c), h = astar_grid_height(c);
  const int32_t n = w * h;
  size_t arcs = 0;
  for (int pass = 0; pass < 2; pass++) {
    size_t at = 0;
    if (pass == 1) {
      at = (size_t)snprintf(text, sizeof text, "c a crop of a real map\np sp %d %zu\n", (int)n,
                            arcs);
    }
    arcs = 0;
    for (int32_t i = 0; i < n; i++) {
      const int32_t x = i % w, y = i / w;
      if (!astar_grid_passable(c, x, y)) continue;
      for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
          const int32_t nx = x + dx, ny = y + dy;
          if ((dx == 0 && dy == 0) || !astar_grid_passable(c, nx, ny)) continue;
          if (dx && dy && (!astar_grid_passable(c, nx, y) || !astar_grid_passable(c, x, ny)))
            continue;
          arcs++;
          if (pass == 1 && at + 64 < sizeof text)
            at += (size_t)snprintf(text + at, sizeof text - at, "a %d %d %d\n", (int)i + 1,
                                   (int)(ny * w + nx) + 1, dx && dy ? 1414 : 1000);
        }
      }
    }
    if (pass == 0) continue;
    at += (size_t)snprintf(text + at, sizeof text - at, "\fp aux sp co %d\n", (int)n);
    for (int32_t i = 0; i < n && at + 64 < sizeof text; i++)
      at += (size_t)snprintf(text + at, sizeof text - at, "v %d %d %d\n", (int)i + 1,
                             (int)(i % w) * 1000, (int)(i / w) * 1000);
    at += (size_t)snprintf(text + at, sizeof text - at, "\fp aux sp p2p 3\n");
    for (int q = 0; q < 3 && at + 64 < sizeof text; q++)
      at += (size_t)snprintf(text + at, sizeof text - at, "q %d %d\n", (int)(next(rng) % n) + 1,
                             (int)(next(rng) % n) + 1);
    return at + 64 < sizeof text && write_file(path, text, at, NULL, 0);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT_DIR MAP...\n", argv[0]);
    return 2;
  }
  const char *out = argv[1];
  uint64_t rng = UINT64_C(0x9e3779b97f4a7c15);
  int bad = 0;
  for (int a = 2; a < argc; a++) {
    size_t len = 0;
    char *text = read_file(argv[a], &len);
    astar_grid *g = NULL;
    astar_parse_error err;
    if (!text || astar_parse_map(&g, text, len, NULL, NULL, NULL, &err) != ASTAR_OK) {
      fprintf(stderr, "%s: not a map (%s)\n", argv[a], text ? err.message : "unreadable");
      free(text);
      bad = 1;
      continue;
    }
    free(text);
    const char *base = strrchr(argv[a], '/');
    base = base ? base + 1 : argv[a];
    const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
    for (size_t k = 0; k < NSIDES; k++) {
      const int32_t cw = crop_sides[k] < w ? crop_sides[k] : w;
      const int32_t ch = crop_sides[k] < h ? crop_sides[k] : h;
      /* Around the middle of the map, where the interesting cells are. */
      astar_grid *c = crop(g, (w - cw) / 2, (h - ch) / 2, cw, ch);
      if (!c) {
        bad = 1;
        continue;
      }
      char path[4096];
      snprintf(path, sizeof path, "%s/jps_plus/%s-%zu", out, base, k);
      if (!jps_plus_seed(path, c, &rng)) bad = 1;
      snprintf(path, sizeof path, "%s/search/%s-%zu", out, base, k);
      if (!search_seed(path, c, (int)(k % 2), &rng)) bad = 1;
      snprintf(path, sizeof path, "%s/ascii_map/%s-%zu", out, base, k);
      if (!ascii_seed(path, c)) bad = 1;
      snprintf(path, sizeof path, "%s/hex_map/%s-%zu", out, base, k);
      if (!hex_seed(path, c, k)) bad = 1;
      /* Graphs of the small crops only: the .gr of a 40 x 40 crop is large. */
      snprintf(path, sizeof path, "%s/dimacs/%s-%zu", out, base, k);
      if (crop_sides[k] <= 12 && !dimacs_seed(path, c, &rng)) bad = 1;
      astar_grid_free(c);
    }
    astar_grid_free(g);
  }
  if (bad) fprintf(stderr, "%s: some seeds were not written\n", argv[0]);
  return bad;
}
