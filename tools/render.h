/*
** render.h -- drawing surfaces of `astar render`: one small set of drawing
** calls (rectangles, triangles, discs, text) with two backends, an RGB raster
** (saved as PNG with libpng by png.c) and an SVG writer (svg.c), so that the
** picture of a search is described once (cmd_render.c).
*/
#ifndef ASTAR_RENDER_H
#define ASTAR_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Colours are 0xRRGGBB. */
typedef uint32_t render_rgb;

enum { RENDER_LEFT, RENDER_RIGHT, RENDER_CENTER }; /* text anchors */

/* Text is drawn with a 5 x 7 pixel font magnified `scale` times: a glyph
** covers 5*scale x 7*scale pixels and advances 6*scale. */
#define RENDER_GLYPH_W 5
#define RENDER_GLYPH_H 7
#define RENDER_ADVANCE 6

typedef struct render_canvas render_canvas;

/* The lattice of a hex map's picture: lattice point (X, Y) is pixel
** (ox + X ux, oy + Y uy). With ux = r sqrt(3)/2 and uy = r/2 (pointy
** hexagons of circumradius r) the hexagon centred at (X, Y) has its corners
** at (X, Y -+ 2) and (X +- 1, Y +- 1); with ux = r/2 and uy = r sqrt(3)/2
** (flat) at (X +- 2, Y) and (X +- 1, Y +- 1). Centres and corners are then
** whole lattice points: neighbours share their corners exactly (computed
** alike), and the SVG writer traces borders along them, two small
** integers an edge. */
typedef struct render_hex_lattice {
  double ox, oy, ux, uy;
  bool flat;
} render_hex_lattice;

/* The corners of the hexagon centred at (0, 0), [flat][k] = {X, Y}: clockwise
** on the screen (y down) from the one at 30 degrees (pointy) or 0 (flat).
** Edge k runs from corner k to corner k + 1 (mod 6); the neighbour across
** it is centred at corner k + corner k + 1. */
extern const int render_hex_corner[2][6][2];

typedef struct render_ops {
  void (*rect)(render_canvas *c, int x, int y, int w, int h, render_rgb color);
  void (*triangle)(render_canvas *c, const double xy[6], render_rgb color);
  void (*disc)(render_canvas *c, double cx, double cy, double r, render_rgb color);
  /* `x` is the left edge, right edge or centre (anchor), `y` the top. */
  void (*text)(render_canvas *c, int x, int y, int anchor, int scale, const char *s,
               render_rgb color);
  /* The hexagon centred at lattice point (x, y) of `l` (above), filled
  ** without anti-aliasing, so that hexagons at distinct points (a hex map's
  ** cells) cover each pixel once with no seam between them, and outlined
  ** `stroke_width` pixels wide in `stroke` (0: no outline). */
  void (*hexagon)(render_canvas *c, const render_hex_lattice *l, int x, int y, render_rgb fill,
                  render_rgb stroke, double stroke_width);
} render_ops;

struct render_canvas {
  const render_ops *ops;
  int width, height; /* pixels */
};

/* The colours of search pictures (square and hex maps alike). Tints are
** light so that black text stays readable on them. */
#define RENDER_C_BACKGROUND 0xFFFFFFu
#define RENDER_C_WALL 0x000000u
#define RENDER_C_OPEN 0xB9D5FFu
#define RENDER_C_OPEN_STRONG 0x4F8FEAu /* without text: the thin frontier must show */
#define RENDER_C_CLOSED 0xFFC4BCu
#define RENDER_C_PATH_LIGHT 0xAEE8A4u /* with F/G/H text */
#define RENDER_C_PATH 0x2FB344u       /* without */
#define RENDER_C_START 0x17923Au
#define RENDER_C_GOAL 0xD62728u
#define RENDER_C_GRID 0xC8C8C8u
#define RENDER_C_DARK 0x1A1A1Au
#define RENDER_C_LIGHT 0xFFFFFFu
#define RENDER_C_LINE 0xE8590Cu /* an any-angle path: smoothed, Theta*, Anya */

/* Text width in pixels at `scale` (without the space after the last glyph). */
int render_text_width(const char *s, int scale);

/* A line of the given width from (x0,y0) to (x1,y1), as two triangles. */
void render_line(render_canvas *c, double x0, double y0, double x1, double y1, double width,
                 render_rgb color);

/* ---- RGB raster (render_raster.c) ---------------------------------------- */

typedef struct render_raster {
  render_canvas base;
  uint8_t *rgb; /* width * height * 3 bytes, rows top to bottom */
} render_raster;

/* Allocate a raster filled with `background`; false when out of memory. */
bool render_raster_init(render_raster *r, int width, int height, render_rgb background);
void render_raster_free(render_raster *r);

/* ---- PNG (png.c, with libpng) ------------------------------------------------- */

/* Encode an RGB image (width * height * 3 bytes, rows top to bottom) as PNG
** with libpng -- a palette image when it has at most 256 colours, else
** truecolour; zlib level 6, or level 0 (stored blocks, no compression) with
** `stored` -- and write it to `out`, flushed. Returns false with errno set on
** failure (a failed write's errno, or ENOMEM), having printed nothing.
** *bytes receives the number of bytes written. */
bool render_png_write(FILE *out, int width, int height, const uint8_t *rgb, bool stored,
                      size_t *bytes);

/* ---- SVG (svg.c) ------------------------------------------------------------ */

/* A run of same-coloured pixels waiting in a render_svg batch; in a batch
** of hexagons, one hexagon: x, y its lattice point, w its slot in `points`,
** h its colour's slot << 6 | the edges of it traced so far (bit k: edge k). */
typedef struct render_svg_run {
  int x, y, w, h;
  int next; /* the next run of the same colour in the batch, -1: none */
} render_svg_run;

/* A colour of the batch: its runs as a chain, first to last. */
typedef struct render_svg_color {
  render_rgb color;
  int first, last; /* run indices; first -1: the slot is free */
} render_svg_color;

typedef struct render_svg {
  render_canvas base;
  FILE *out;
  /* A pending rectangle: horizontal neighbours of one colour merge into it. */
  int px, py, pw, ph;
  render_rgb pcolor;
  bool pending;
  /* The batch: rectangles, or hexagons, written as one <path> per colour,
  ** which keeps a map's picture to a few elements (den520d: 2 077 <rect>s
  ** became 7 <path>s; a 512 x 512 hex map's 75 771 <polygon>s, 33). No
  ** rectangle of a batch overlaps another -- each lies in a row band below
  ** the previous ones, or right of them in the same band -- and no two
  ** hexagons share a lattice point, so regrouping them by colour does not
  ** change the picture; any other drawing call writes the batch first.
  ** runs / colors NULL (no memory): every rectangle or hexagon is written at
  ** once, as a path of its own. */
  render_svg_run *runs;
  size_t nruns;
  render_svg_color *colors; /* open addressing, RENDER_SVG_SLOTS slots */
  int *order;               /* slot of each colour, in order of first use */
  int ncolors;
  int band_y, band_h, band_end; /* the last run's row band and right end */
  bool ordered;                 /* every run of the batch is below or right of the ones before */
  /* A batch of hexagons: all on one lattice with one outline; `points`
  ** finds a lattice point's run (open addressing, -1 free), allocated with
  ** the first hexagon (NULL: none yet, or no memory). */
  bool hexes;
  int *points;
  render_hex_lattice lattice;
  render_rgb stroke;
  double stroke_width;
  /* Discs drawn one after another in one colour and size (a path's dots)
  ** go in one <path>: ndiscs of them so far; the first waits in (dx, dy)
  ** and is written as a <circle> if no second one follows. */
  int ndiscs;
  double dx, dy, dr;
  render_rgb dcolor;
} render_svg;

/* Write the SVG prologue (size, background, `attrs` -- extra root attributes,
** may be NULL) and set up the canvas. Allocates the batch (about 1.3 MB,
** and 0.5 MB more with the first hexagon); without memory it writes the
** same picture, one path a rectangle or hexagon. */
void render_svg_begin(render_svg *s, FILE *out, int width, int height, render_rgb background,
                      const char *attrs);

/* Write what was drawn so far, so that the caller may write elements of its
** own to s->out after it (mapf's animation). */
void render_svg_flush(render_svg *s);

/* Write what is left and the epilogue; release the batch. */
void render_svg_end(render_svg *s);

#endif /* ASTAR_RENDER_H */
