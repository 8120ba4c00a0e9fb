/*
** test_png.c -- the PNG writer of `astar render` (tools/png.c): pictures
** drawn with the tool's raster backend (tools/render_raster.c) and made-up
** ones of 1 to 1000 colours are written, decoded again by libpng's reader
** (its simplified API, which shares no code with the writer's choices of
** colour type, packing and filters) and compared byte for byte with the RGB
** buffer; cells of several pixels (rows that repeat); the colour type and
** bit depth in IHDR; compressed and stored files alike; the byte count; write errors return false
*with errno and no leak.
*/
#include <errno.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/render.h"
#include "check.h"

/* ---- helpers ------------------------------------------------------------- */

/* A written file, read back whole. */
typedef struct blob {
  uint8_t *data;
  size_t len;
} blob;

/* Write `rgb` with render_png_write into a temporary file and read it back;
** false (with a message) when writing fails. *reported: the bytes it says. */
static bool write_png(int w, int h, const uint8_t *rgb, bool stored, blob *b, size_t *reported) {
  b->data = NULL;
  b->len = 0;
  FILE *f = tmpfile();
  if (!f) {
    perror("tmpfile");
    return false;
  }
  bool ok = render_png_write(f, w, h, rgb, stored, reported);
  long size = ok ? ftell(f) : -1;
  if (ok && size > 0 && fseek(f, 0, SEEK_SET) == 0) {
    b->data = malloc((size_t)size);
    b->len = (size_t)size;
    ok = b->data && fread(b->data, 1, b->len, f) == b->len;
  } else {
    ok = false;
  }
  fclose(f);
  if (!ok) fprintf(stderr, "writing a %d x %d png failed\n", w, h);
  return ok;
}

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Write, decode with libpng's reader, compare with `rgb`; check IHDR's size,
** bit depth and colour type (3 palette, 2 RGB). */
static void roundtrip(int w, int h, const uint8_t *rgb, bool stored, int want_depth,
                      int want_type) {
  blob b;
  size_t reported = 0;
  CHECK(write_png(w, h, rgb, stored, &b, &reported));
  if (!b.data) return;
  CHECK_EQ(reported, b.len);
  /* Signature, then IHDR: length 13, "IHDR", width, height, depth, type. */
  CHECK(b.len > 33 && memcmp(b.data, "\x89PNG\r\n\x1a\n", 8) == 0);
  CHECK(memcmp(b.data + 12, "IHDR", 4) == 0);
  CHECK_EQ(be32(b.data + 16), (uint32_t)w);
  CHECK_EQ(be32(b.data + 20), (uint32_t)h);
  CHECK_EQ(b.data[24], want_depth);
  CHECK_EQ(b.data[25], want_type);

  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, b.data, b.len)) {
    CHECKF(false, "libpng: %s", img.message);
    free(b.data);
    return;
  }
  img.format = PNG_FORMAT_RGB;
  const size_t n = (size_t)w * (size_t)h * 3;
  CHECK_EQ(PNG_IMAGE_SIZE(img), n);
  uint8_t *got = malloc(n);
  CHECK(got != NULL);
  if (got && png_image_finish_read(&img, NULL, got, 0, NULL)) {
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++) {
      if (got[i] != rgb[i]) {
        bad++;
        if (first == n) first = i;
      }
    }
    CHECKF(bad == 0, "%zu of %zu bytes differ, the first at pixel (%zu, %zu)", bad, n,
           first / 3 % (size_t)w, first / 3 / (size_t)w);
  } else {
    CHECKF(false, "libpng: %s", img.message);
    png_image_free(&img);
  }
  free(got);
  free(b.data);
}

/* Both ways: compressed and stored. */
static void roundtrip2(int w, int h, const uint8_t *rgb, int want_depth, int want_type) {
  roundtrip(w, h, rgb, false, want_depth, want_type);
  roundtrip(w, h, rgb, true, want_depth, want_type);
}

/* A small deterministic generator (xorshift). */
static uint32_t next(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* A w x h picture whose pixels take `ncolors` colours in a scattered order
** (palette indices change inside every byte of a packed row). */
static uint8_t *colors_picture(int w, int h, int ncolors) {
  uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
  if (!rgb) return NULL;
  uint32_t seed = 12345;
  for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
    /* Colour k is a distinct 24-bit value, spread over all three channels. */
    uint32_t k = next(&seed) % (uint32_t)ncolors;
    uint32_t c = (k * 2654435761u) >> 8;
    rgb[3 * i] = (uint8_t)(c >> 16);
    rgb[3 * i + 1] = (uint8_t)(c >> 8);
    rgb[3 * i + 2] = (uint8_t)c;
  }
  return rgb;
}

/* `rgb` (w x h) with every pixel made a k x k block, as the tool draws
** cells: k - 1 of every k rows repeat the one above. */
static uint8_t *scaled(const uint8_t *rgb, int w, int h, int k) {
  const size_t sw = (size_t)w * (size_t)k, sh = (size_t)h * (size_t)k;
  uint8_t *out = malloc(sw * sh * 3);
  if (!out) return NULL;
  for (size_t y = 0; y < sh; y++)
    for (size_t x = 0; x < sw; x++)
      memcpy(out + 3 * (y * sw + x), rgb + 3 * (y / (size_t)k * (size_t)w + x / (size_t)k), 3);
  return out;
}

/* ---- tests ----------------------------------------------------------------- */

/* Palette depths 1, 2, 4 and 8 and RGB past 256 colours, at widths that end
** inside a packed byte. */
static void test_colour_counts(void) {
  static const struct {
    int colors, depth, type;
  } cases[] = {{1, 1, 3},  {2, 1, 3},  {3, 2, 3},   {4, 2, 3},   {5, 4, 3},
               {16, 4, 3}, {17, 8, 3}, {256, 8, 3}, {257, 8, 2}, {1000, 8, 2}};
  static const int sizes[][2] = {{1, 1}, {37, 23}, {8, 3}, {1, 40}, {129, 65}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const int w = sizes[s][0], h = sizes[s][1];
      /* A picture cannot have more colours than pixels. */
      if (cases[c].colors > 1 && w * h < 4 * cases[c].colors) continue;
      uint8_t *rgb = colors_picture(w, h, cases[c].colors);
      CHECK(rgb != NULL);
      if (!rgb) return;
      roundtrip2(w, h, rgb, cases[c].depth, cases[c].type);
      free(rgb);
    }
  }
}

/* Cells of several pixels: repeated rows (written with the Up filter). */
static void test_cells(void) {
  static const struct {
    int colors, cell, depth, type;
  } cases[] = {{2, 3, 1, 3}, {4, 4, 2, 3}, {12, 5, 4, 3}, {40, 3, 8, 3}, {600, 2, 8, 2}};
  const int w = 41, h = 29;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    uint8_t *rgb = colors_picture(w, h, cases[c].colors);
    uint8_t *big = rgb ? scaled(rgb, w, h, cases[c].cell) : NULL;
    CHECK(big != NULL);
    if (big) roundtrip2(w * cases[c].cell, h * cases[c].cell, big, cases[c].depth, cases[c].type);
    free(big);
    free(rgb);
  }
}

/* A picture drawn like the tool's: background, walls, a path as a line,
** start and goal discs, text -- anti-aliasing blends add colours. */
static void draw_search(render_raster *r, int w, int h) {
  render_canvas *c = &r->base;
  for (int y = 0; y < h; y += 16)
    for (int x = (y / 16) % 3 * 16; x < w; x += 48) c->ops->rect(c, x, y, 16, 16, RENDER_C_WALL);
  c->ops->rect(c, 20, 20, w / 2, h / 3, RENDER_C_CLOSED);
  c->ops->rect(c, 20 + w / 2, 20, 8, h / 3, RENDER_C_OPEN_STRONG);
  render_line(c, 8, 8, w - 9.5, h - 7.25, 3, RENDER_C_PATH);
  c->ops->disc(c, 8, 8, 6.5, RENDER_C_START);
  c->ops->disc(c, w - 9.5, h - 7.25, 6.5, RENDER_C_GOAL);
  c->ops->text(c, 4, h - 20, RENDER_LEFT, 2, "F 12.5 G 3", RENDER_C_DARK);
}

static void test_tool_pictures(void) {
  static const int sizes[][2] = {{300, 200}, {101, 77}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const int w = sizes[s][0], h = sizes[s][1];
    render_raster r;
    CHECK(render_raster_init(&r, w, h, RENDER_C_BACKGROUND));
    if (!r.rgb) return;
    draw_search(&r, w, h);
    roundtrip2(w, h, r.rgb, 8, 3); /* a few dozen colours with the blends */
    render_raster_free(&r);
  }
}

/* Truecolour noise and gradients: every row filter gets used. */
static void test_rgb(void) {
  const int w = 211, h = 97;
  uint8_t *rgb = malloc((size_t)w * h * 3);
  CHECK(rgb != NULL);
  if (!rgb) return;
  uint32_t seed = 99;
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      uint8_t *p = rgb + 3 * ((size_t)y * w + (size_t)x);
      if (y < h / 2) {
        p[0] = (uint8_t)(x * 255 / (w - 1));
        p[1] = (uint8_t)(y * 5);
        p[2] = (uint8_t)(x + y);
      } else {
        uint32_t v = next(&seed);
        p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16);
      }
    }
  }
  roundtrip2(w, h, rgb, 8, 2);
  free(rgb);
}

/* Stored means level 0: no smaller than the raw rows; compressed is smaller. */
static void test_stored_is_uncompressed(void) {
  const int w = 640, h = 480;
  render_raster r;
  CHECK(render_raster_init(&r, w, h, RENDER_C_BACKGROUND));
  if (!r.rgb) return;
  draw_search(&r, w, h);
  blob a, b;
  size_t na = 0, nb = 0;
  CHECK(write_png(w, h, r.rgb, false, &a, &na));
  CHECK(write_png(w, h, r.rgb, true, &b, &nb));
  /* 8-bit palette rows: w bytes and a filter byte each. */
  CHECKF(nb >= (size_t)h * (size_t)(w + 1), "stored: %zu bytes", nb);
  CHECKF(na * 20 < nb, "compressed %zu bytes, stored %zu", na, nb);
  free(a.data);
  free(b.data);
  render_raster_free(&r);
}

/* A stream that refuses writes: false, errno set, nothing printed. */
static void test_write_errors(void) {
  uint8_t *rgb = colors_picture(64, 64, 300);
  CHECK(rgb != NULL);
  if (!rgb) return;
  size_t bytes = 1;
  /* Read-only: the first write fails. */
  FILE *ro = fopen("/dev/null", "rb");
  CHECK(ro != NULL);
  if (ro) {
    errno = 0;
    CHECK(!render_png_write(ro, 64, 64, rgb, false, &bytes));
    CHECK(errno != 0);
    fclose(ro);
  }
  /* A full disk: a picture larger than stdio's buffer fails in a write, a
  ** small one (under 100 bytes) in the final flush. */
  FILE *full = fopen("/dev/full", "wb");
  if (full) {
    static const int sizes[] = {64, 8};
    for (size_t i = 0; i < 2; i++) {
      errno = 0;
      CHECK(!render_png_write(full, sizes[i], sizes[i], rgb, false, &bytes));
      CHECK_EQ(errno, ENOSPC);
      clearerr(full);
    }
    fclose(full);
  } else {
    printf("skip /dev/full: %s\n", strerror(errno));
  }
  errno = 0;
  CHECK(!render_png_write(stdout, 0, 5, rgb, false, &bytes));
  CHECK_EQ(errno, EINVAL);
  CHECK_EQ(bytes, 0);
  free(rgb);
}

int main(void) {
  RUN(test_colour_counts);
  RUN(test_cells);
  RUN(test_tool_pictures);
  RUN(test_rgb);
  RUN(test_stored_is_uncompressed);
  RUN(test_write_errors);
  return check_summary();
}
