/*
** render_raster.c -- the RGB raster backend of `astar render` (what the PNG
** encoder saves): filled rectangles and hexagons, anti-aliased triangles and
** discs (4 x 4 samples a pixel), and text in a built-in 5 x 7 bitmap font
** that has the characters cost labels need. Also the backend-neutral helpers of render.h.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* ---- the font ----------------------------------------------------------------
** Each glyph is 7 rows of 5 bits, the leftmost pixel in bit 4. */

typedef struct glyph {
  char c;
  uint8_t rows[7];
} glyph;

static const glyph font[] = {
    {'0', {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
    {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
    {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
    {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
    {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
    {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}},
    {'-', {0x00, 0x00, 0x00, 0x0E, 0x00, 0x00, 0x00}},
    {'+', {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00}},
    {'e', {0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E}},
    {'i', {0x04, 0x00, 0x0C, 0x04, 0x04, 0x04, 0x0E}},
    {'n', {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'f', {0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08}},
    {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}},
    {'G', {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}},
    {'H', {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
    {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}},
    {' ', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
};

static const uint8_t *glyph_rows(char c) {
  static const uint8_t box[7] = {0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F};
  for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
    if (font[i].c == c) return font[i].rows;
  return box; /* a character the font lacks */
}

int render_text_width(const char *s, int scale) {
  size_t n = strlen(s);
  return n ? (int)n * RENDER_ADVANCE * scale - scale : 0;
}

void render_line(render_canvas *c, double x0, double y0, double x1, double y1, double width,
                 render_rgb color) {
  double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
  if (len <= 0) return;
  double nx = -dy / len * width / 2, ny = dx / len * width / 2;
  double a[6] = {x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny};
  double b[6] = {x0 + nx, y0 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny};
  c->ops->triangle(c, a, color);
  c->ops->triangle(c, b, color);
}

/* ---- the raster ----------------------------------------------------------------- */

static void put_pixel(render_raster *r, int x, int y, render_rgb color) {
  uint8_t *p = r->rgb + ((size_t)y * (size_t)r->base.width + (size_t)x) * 3;
  p[0] = (uint8_t)(color >> 16);
  p[1] = (uint8_t)(color >> 8);
  p[2] = (uint8_t)color;
}

/* Mix `color` into a pixel with coverage k/16, in quarter steps so that the
** picture keeps few colours (a palette PNG). */
static void blend_pixel(render_raster *r, int x, int y, render_rgb color, int k) {
  int q = (k + 2) / 4; /* 0..4 quarters */
  if (q == 0) return;
  uint8_t *p = r->rgb + ((size_t)y * (size_t)r->base.width + (size_t)x) * 3;
  for (int i = 0; i < 3; i++) {
    int src = (int)(color >> (16 - 8 * i)) & 0xFF;
    p[i] = (uint8_t)(p[i] + (src - p[i]) * q / 4);
  }
}

static void raster_rect(render_canvas *c, int x, int y, int w, int h, render_rgb color) {
  render_raster *r = (render_raster *)c;
  int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
  int x1 = x + w > c->width ? c->width : x + w, y1 = y + h > c->height ? c->height : y + h;
  if (x0 >= x1 || y0 >= y1) return;
  for (int yy = y0; yy < y1; yy++) {
    put_pixel(r, x0, yy, color);
    uint8_t *row = r->rgb + ((size_t)yy * (size_t)c->width + (size_t)x0) * 3;
    for (size_t xx = 1; xx < (size_t)(x1 - x0); xx++) memcpy(row + 3 * xx, row, 3);
  }
}

/* Clip a bounding box to the canvas; false when nothing is left. */
static bool clip_box(const render_canvas *c, double minx, double miny, double maxx, double maxy,
                     int box[4]) {
  box[0] = minx < 0 ? 0 : (int)floor(minx);
  box[1] = miny < 0 ? 0 : (int)floor(miny);
  box[2] = maxx >= c->width ? c->width - 1 : (int)floor(maxx);
  box[3] = maxy >= c->height ? c->height - 1 : (int)floor(maxy);
  return box[0] <= box[2] && box[1] <= box[3];
}

static double edge(double ax, double ay, double bx, double by, double px, double py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

static void raster_triangle(render_canvas *c, const double t[6], render_rgb color) {
  render_raster *r = (render_raster *)c;
  double area = edge(t[0], t[1], t[2], t[3], t[4], t[5]);
  if (area == 0) return;
  double s = area > 0 ? 1 : -1;
  int box[4];
  if (!clip_box(c, fmin(t[0], fmin(t[2], t[4])), fmin(t[1], fmin(t[3], t[5])),
                fmax(t[0], fmax(t[2], t[4])), fmax(t[1], fmax(t[3], t[5])), box))
    return;
  for (int y = box[1]; y <= box[3]; y++) {
    for (int x = box[0]; x <= box[2]; x++) {
      int k = 0;
      for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
          double px = x + (i + 0.5) / 4, py = y + (j + 0.5) / 4;
          k += s * edge(t[0], t[1], t[2], t[3], px, py) >= 0 &&
               s * edge(t[2], t[3], t[4], t[5], px, py) >= 0 &&
               s * edge(t[4], t[5], t[0], t[1], px, py) >= 0;
        }
      }
      blend_pixel(r, x, y, color, k);
    }
  }
}

static void raster_disc(render_canvas *c, double cx, double cy, double rad, render_rgb color) {
  render_raster *r = (render_raster *)c;
  int box[4];
  if (!clip_box(c, cx - rad, cy - rad, cx + rad, cy + rad, box)) return;
  for (int y = box[1]; y <= box[3]; y++) {
    for (int x = box[0]; x <= box[2]; x++) {
      int k = 0;
      for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
          double dx = x + (i + 0.5) / 4 - cx, dy = y + (j + 0.5) / 4 - cy;
          k += dx * dx + dy * dy <= rad * rad;
        }
      }
      blend_pixel(r, x, y, color, k);
    }
  }
}

static void raster_text(render_canvas *c, int x, int y, int anchor, int scale, const char *s,
                        render_rgb color) {
  int w = render_text_width(s, scale);
  if (anchor == RENDER_RIGHT) x -= w;
  if (anchor == RENDER_CENTER) x -= w / 2;
  for (; *s; s++, x += RENDER_ADVANCE * scale) {
    const uint8_t *rows = glyph_rows(*s);
    for (int j = 0; j < RENDER_GLYPH_H; j++)
      for (int i = 0; i < RENDER_GLYPH_W; i++)
        if (rows[j] & (0x10 >> i))
          raster_rect(c, x + i * scale, y + j * scale, scale, scale, color);
  }
}

/* Fill by pixel centres (even-odd crossings), without anti-aliasing: a
** pixel centre lies in exactly one of the polygons that tile a region, so
** neighbours leave no lighter seam between them. The outline, when asked
** for, is drawn anti-aliased on top. */
static void raster_polygon(render_canvas *c, const double *xy, int n, render_rgb fill,
                           render_rgb stroke, double stroke_width) {
  render_raster *r = (render_raster *)c;
  if (n < 3) return;
  const size_t m = (size_t)n;
  double minx = xy[0], maxx = xy[0], miny = xy[1], maxy = xy[1];
  for (size_t i = 1; i < m; i++) {
    minx = fmin(minx, xy[2 * i]), maxx = fmax(maxx, xy[2 * i]);
    miny = fmin(miny, xy[2 * i + 1]), maxy = fmax(maxy, xy[2 * i + 1]);
  }
  int box[4];
  if (clip_box(c, minx, miny, maxx, maxy, box)) {
    for (int y = box[1]; y <= box[3]; y++) {
      const double py = y + 0.5;
      for (int x = box[0]; x <= box[2]; x++) {
        const double px = x + 0.5;
        bool inside = false;
        for (size_t i = 0, j = m - 1; i < m; j = i++) {
          const double xi = xy[2 * i], yi = xy[2 * i + 1], xj = xy[2 * j], yj = xy[2 * j + 1];
          if ((yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi)
            inside = !inside;
        }
        if (inside) put_pixel(r, x, y, fill);
      }
    }
  }
  if (stroke_width > 0)
    for (size_t i = 0, j = m - 1; i < m; j = i++)
      render_line(c, xy[2 * j], xy[2 * j + 1], xy[2 * i], xy[2 * i + 1], stroke_width, stroke);
}

const int render_hex_corner[2][6][2] = {{{1, 1}, {0, 2}, {-1, 1}, {-1, -1}, {0, -2}, {1, -1}},
                                        {{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}}};

static void raster_hexagon(render_canvas *c, const render_hex_lattice *l, int x, int y,
                           render_rgb fill, render_rgb stroke, double stroke_width) {
  const int(*d)[2] = render_hex_corner[l->flat];
  double xy[12];
  for (size_t k = 0; k < 6; k++) {
    xy[2 * k] = l->ox + (double)(x + d[k][0]) * l->ux;
    xy[2 * k + 1] = l->oy + (double)(y + d[k][1]) * l->uy;
  }
  raster_polygon(c, xy, 6, fill, stroke, stroke_width);
}

static const render_ops raster_ops = {raster_rect, raster_triangle, raster_disc, raster_text,
                                      raster_hexagon};

bool render_raster_init(render_raster *r, int width, int height, render_rgb background) {
  r->base.ops = &raster_ops;
  r->base.width = width;
  r->base.height = height;
  r->rgb = malloc((size_t)width * (size_t)height * 3 + 1);
  if (!r->rgb) return false;
  raster_rect(&r->base, 0, 0, width, height, background);
  return true;
}

void render_raster_free(render_raster *r) {
  free(r->rgb);
  r->rgb = NULL;
}
