/*
** png.c -- the PNG files of `astar render`, written with libpng: a palette
** image (1, 2, 4 or 8 bits a pixel) when the picture has at most 256 colours,
** as search pictures nearly always do, RGB otherwise. libpng filters the rows
** and compresses them with zlib; this file only picks the colour type,
** counts the bytes and turns libpng's errors into a false return.
*/
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* zlib's level for compressed pictures: its default, 6. On search pictures
** it is about as fast as the hand-written encoder this file replaced, at 20
** to 75 % fewer bytes; level 9 saves another 11 to 22 % but takes 2 to 9
** times as long (docs/seeing-the-search.md has the measurements). */
#define PNG_LEVEL 6

/* Up to 256 colours: their palette and, per pixel, the index. */
typedef struct palette {
  uint32_t slot_color[1024]; /* open addressing, 0xFFFFFFFF = empty */
  uint8_t slot_index[1024];
  png_color color[256];
  int count;
} palette;

/* Index of `c`, adding it; -1 once there are more than 256 colours. */
static int palette_index(palette *pal, uint32_t c) {
  uint32_t h = (c * 2654435761u) >> 22;
  for (;; h = (h + 1) & 1023) {
    if (pal->slot_color[h] == c) return pal->slot_index[h];
    if (pal->slot_color[h] == 0xFFFFFFFFu) {
      if (pal->count == 256) return -1;
      pal->slot_color[h] = c;
      pal->slot_index[h] = (uint8_t)pal->count;
      pal->color[pal->count] = (png_color){(png_byte)(c >> 16), (png_byte)(c >> 8), (png_byte)c};
      return pal->count++;
    }
  }
}

/* One picture being written. It is on the heap: what libpng's callbacks
** change is then well defined after its error handler longjmp()s back. */
typedef struct writer {
  palette pal;
  const uint8_t *pixels; /* w * h palette indices, or w * h RGB triples */
  size_t w, h;
  int depth; /* bits a pixel (a sample, for RGB) */
  bool use_palette, stored;
  FILE *out;
  size_t bytes; /* written so far */
  int error;    /* errno of a failed write, or 0 */
} writer;

static void sink_write(png_structp png, png_bytep data, size_t n) {
  writer *s = png_get_io_ptr(png);
  errno = 0;
  if (fwrite(data, 1, n, s->out) != n) {
    s->error = errno ? errno : EIO;
    png_error(png, "write error");
  }
  s->bytes += n;
}

static void sink_flush(png_structp png) {
  writer *s = png_get_io_ptr(png);
  errno = 0;
  if (fflush(s->out) != 0) {
    s->error = errno ? errno : EIO;
    png_error(png, "write error");
  }
}

/* libpng's default handlers print to stderr; the tool prints one message of
** its own (from errno), so errors only jump back and warnings are dropped. */
static void on_error(png_structp png, png_const_charp message) {
  (void)message;
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

/* Write wr's picture with libpng; false on any error (wr->error says which
** errno a failed write had). */
static bool encode(writer *wr) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    return false;
  }
  /* png and info do not change after this point, so they are valid when
  ** libpng's error handler jumps back here. */
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, wr, sink_write, sink_flush);
  png_set_compression_level(png, wr->stored ? 0 : PNG_LEVEL);
  png_set_IHDR(png, info, (png_uint_32)wr->w, (png_uint_32)wr->h, wr->depth,
               wr->use_palette ? PNG_COLOR_TYPE_PALETTE : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (wr->use_palette) png_set_PLTE(png, info, wr->pal.color, wr->pal.count);
  png_write_info(png, info);
  const size_t stride = wr->use_palette ? wr->w : 3 * wr->w;
  if (wr->use_palette) {
    /* Palette rows hold one index a byte, packed to `depth` bits by libpng.
    ** Indices are not quantities, so the arithmetic filters do not suit
    ** them (libpng's default is no filter), but a row that repeats the one
    ** above -- every row of a cell but its first -- is all zeros under the
    ** Up filter. The filter may change from row to row once Up was enabled
    ** when the first row was written: libpng then keeps the previous row. */
    png_set_packing(png);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE | PNG_FILTER_UP);
    for (size_t y = 0; y < wr->h; y++) {
      const uint8_t *row = wr->pixels + y * stride;
      if (y > 0) {
        const bool repeat = memcmp(row, row - stride, stride) == 0;
        png_set_filter(png, PNG_FILTER_TYPE_BASE, repeat ? PNG_FILTER_UP : PNG_FILTER_NONE);
      }
      png_write_row(png, row);
    }
  } else {
    /* RGB rows get the filter libpng's heuristic picks for each. */
    for (size_t y = 0; y < wr->h; y++) png_write_row(png, wr->pixels + y * stride);
  }
  png_write_end(png, info);
  /* libpng does not flush after IEND: a full disk shows here, not at fclose. */
  sink_flush(png);
  png_destroy_write_struct(&png, &info);
  return true;
}

bool render_png_write(FILE *out, int width, int height, const uint8_t *rgb, bool stored,
                      size_t *bytes_out) {
  *bytes_out = 0;
  if (width <= 0 || height <= 0) {
    errno = EINVAL;
    return false;
  }
  const size_t w = (size_t)width, h = (size_t)height, npix = w * h;
  writer *wr = malloc(sizeof *wr);
  uint8_t *index = malloc(npix);
  if (!wr || !index) {
    free(wr);
    free(index);
    errno = ENOMEM;
    return false;
  }
  palette *pal = &wr->pal;
  memset(pal->slot_color, 0xFF, sizeof pal->slot_color);
  pal->count = 0;
  bool use_palette = true;
  for (size_t i = 0; i < npix && use_palette; i++) {
    const uint8_t *p = rgb + 3 * i;
    const int k = palette_index(pal, (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]);
    if (k < 0)
      use_palette = false;
    else
      index[i] = (uint8_t)k;
  }
  wr->pixels = use_palette ? index : rgb;
  wr->w = w;
  wr->h = h;
  wr->depth = !use_palette       ? 8
              : pal->count <= 2  ? 1
              : pal->count <= 4  ? 2
              : pal->count <= 16 ? 4
                                 : 8;
  wr->use_palette = use_palette;
  wr->stored = stored;
  wr->out = out;
  wr->bytes = 0;
  wr->error = 0;
  const bool ok = encode(wr);
  /* Besides a failed write, libpng fails only when out of memory: the
  ** header it is given is valid. */
  if (!ok) errno = wr->error ? wr->error : ENOMEM;
  *bytes_out = wr->bytes;
  free(wr);
  free(index);
  return ok;
}
