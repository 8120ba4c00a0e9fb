/*
** svg.c -- the SVG backend of `astar render`: the drawing calls of render.h
** written out as <path>, <polygon>, <circle> and <text> elements. Runs of
** same-coloured cells on a row merge into one rectangle, and the
** rectangles drawn one after another (a map's cells, its grid lines) are
** written as one <path> per colour, a subpath "m dx dy h w v h h -w z" a
** rectangle: a 256 x 257 Moving AI map is some 50 KB and a handful of
** elements, which a browser opens at once, instead of thousands of <rect>s.
*/
#include <stdlib.h>

#include "render.h"

#define RUNS_MAX 65536        /* rectangles in a batch: the batch takes about 1.3 MB */
#define RENDER_SVG_SLOTS 1024 /* colour slots (a power of two) */
#define COLORS_MAX 512        /* colours in a batch: the slots stay at most half full */
#define RUNS_A_LINE 64        /* subpaths per line of a path's data */

/* Write the batch, one path per colour in order of first use, and empty it. */
static void write_batch(render_svg *s) {
  for (int k = 0; k < s->ncolors; k++) {
    render_svg_color *c = &s->colors[s->order[k]];
    fprintf(s->out, "<path fill=\"#%06x\" d=\"", (unsigned)c->color);
    int x = 0, y = 0, n = 0; /* after "z", the current point is the subpath's start */
    for (int i = c->first; i >= 0; i = s->runs[i].next, n++) {
      const render_svg_run *r = &s->runs[i];
      if (n > 0 && n % RUNS_A_LINE == 0) fputc('\n', s->out);
      fprintf(s->out, n ? "m%d %dh%dv%dh-%dz" : "M%d %dh%dv%dh-%dz", r->x - x, r->y - y, r->w, r->h,
              r->w);
      x = r->x, y = r->y;
    }
    fputs("\"/>\n", s->out);
    c->first = -1;
  }
  s->nruns = 0;
  s->ncolors = 0;
}

/* Add a rectangle to the batch, writing the batch first when the rectangle
** could overlap one of another colour in it -- it lies neither below the
** last band nor right of the last run in that band, and the batch holds
** other colours -- or the batch is full. Overlaps of one colour (a path's
** squares drawn over the cells) change nothing; after one the order is
** lost, and any other colour writes the batch first. */
static void add_run(render_svg *s, int x, int y, int w, int h, render_rgb color) {
  if (!s->runs) { /* no batch: one path now */
    fprintf(s->out, "<path fill=\"#%06x\" d=\"M%d %dh%dv%dh-%dz\"/>\n", (unsigned)color, x, y, w, h,
            w);
    return;
  }
  const bool right = y == s->band_y && h == s->band_h && x >= s->band_end;
  const bool below = (long)y >= (long)s->band_y + s->band_h;
  const bool in_order = s->ordered && (right || below);
  const bool one_color = s->ncolors == 1 && s->colors[s->order[0]].color == color;
  if (s->nruns == RUNS_MAX || s->ncolors == COLORS_MAX || (s->nruns > 0 && !in_order && !one_color))
    write_batch(s);
  if (s->nruns == 0 || in_order) {
    if (s->nruns == 0) s->ordered = true;
    if (s->nruns == 0 || !right) s->band_y = y, s->band_h = h;
    s->band_end = x + w;
  } else {
    s->ordered = false;
  }
  unsigned slot = (color * 2654435761u) & (RENDER_SVG_SLOTS - 1);
  while (s->colors[slot].first >= 0 && s->colors[slot].color != color)
    slot = (slot + 1) & (RENDER_SVG_SLOTS - 1);
  render_svg_color *c = &s->colors[slot];
  const int i = (int)s->nruns++;
  s->runs[i] = (render_svg_run){x, y, w, h, -1};
  if (c->first < 0) {
    c->color = color;
    c->first = i;
    s->order[s->ncolors++] = (int)slot;
  } else {
    s->runs[c->last].next = i;
  }
  c->last = i;
}

/* The pending rectangle into the batch. */
static void flush(render_svg *s) {
  if (!s->pending) return;
  add_run(s, s->px, s->py, s->pw, s->ph, s->pcolor);
  s->pending = false;
}

/* Before any element other than a rectangle: what was drawn before it. */
static void flush_all(render_svg *s) {
  flush(s);
  if (s->runs && s->nruns) write_batch(s);
}

static void svg_rect(render_canvas *c, int x, int y, int w, int h, render_rgb color) {
  render_svg *s = (render_svg *)c;
  if (w <= 0 || h <= 0) return;
  if (s->pending && s->py == y && s->ph == h && s->pcolor == color && s->px + s->pw == x) {
    s->pw += w;
    return;
  }
  flush(s);
  s->px = x, s->py = y, s->pw = w, s->ph = h, s->pcolor = color;
  s->pending = true;
}

/* Coordinates with at most two decimals: enough at any cell size. */
static void coord(FILE *out, double v) {
  long hundredths = (long)(v * 100 + (v < 0 ? -0.5 : 0.5));
  if (hundredths % 100 == 0)
    fprintf(out, "%ld", hundredths / 100);
  else
    fprintf(out, "%.2f", (double)hundredths / 100);
}

static void svg_triangle(render_canvas *c, const double t[6], render_rgb color) {
  render_svg *s = (render_svg *)c;
  flush_all(s);
  fputs("<polygon points=\"", s->out);
  for (int i = 0; i < 6; i++) {
    coord(s->out, t[i]);
    if (i < 5) fputc(i % 2 ? ' ' : ',', s->out);
  }
  fprintf(s->out, "\" fill=\"#%06x\"/>\n", (unsigned)color);
}

static void svg_disc(render_canvas *c, double cx, double cy, double r, render_rgb color) {
  render_svg *s = (render_svg *)c;
  flush_all(s);
  fputs("<circle cx=\"", s->out);
  coord(s->out, cx);
  fputs("\" cy=\"", s->out);
  coord(s->out, cy);
  fputs("\" r=\"", s->out);
  coord(s->out, r);
  fprintf(s->out, "\" fill=\"#%06x\"/>\n", (unsigned)color);
}

/* A monospace font of size 9*scale has about the raster font's metrics:
** digits 7*scale high on the baseline, a little narrower (5.4*scale). */
static void svg_text(render_canvas *c, int x, int y, int anchor, int scale, const char *text,
                     render_rgb color) {
  render_svg *s = (render_svg *)c;
  flush_all(s);
  static const char *const anchors[] = {"start", "end", "middle"};
  fprintf(s->out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\"", x, y + RENDER_GLYPH_H * scale,
          9 * scale);
  if (anchor != RENDER_LEFT) fprintf(s->out, " text-anchor=\"%s\"", anchors[anchor]);
  fprintf(s->out, " fill=\"#%06x\">", (unsigned)color);
  for (; *text; text++) {
    if (*text == '<')
      fputs("&lt;", s->out);
    else if (*text == '&')
      fputs("&amp;", s->out);
    else if (*text == '>')
      fputs("&gt;", s->out);
    else
      fputc(*text, s->out);
  }
  fputs("</text>\n", s->out);
}

static void svg_polygon(render_canvas *c, const double *xy, int n, render_rgb fill,
                        render_rgb stroke, double stroke_width) {
  render_svg *s = (render_svg *)c;
  flush_all(s);
  fputs("<polygon points=\"", s->out);
  const size_t m = n > 0 ? 2 * (size_t)n : 0;
  for (size_t i = 0; i < m; i++) {
    coord(s->out, xy[i]);
    if (i + 1 < m) fputc(i % 2 ? ' ' : ',', s->out);
  }
  fprintf(s->out, "\" fill=\"#%06x\"", (unsigned)fill);
  if (stroke_width > 0) {
    fprintf(s->out, " stroke=\"#%06x\" stroke-width=\"", (unsigned)stroke);
    coord(s->out, stroke_width);
    fputc('"', s->out);
  }
  fputs("/>\n", s->out);
}

static const render_ops svg_ops = {svg_rect, svg_triangle, svg_disc, svg_text, svg_polygon};

void render_svg_begin(render_svg *s, FILE *out, int width, int height, render_rgb background,
                      const char *attrs) {
  s->base.ops = &svg_ops;
  s->base.width = width;
  s->base.height = height;
  s->out = out;
  s->pending = false;
  s->nruns = 0;
  s->ncolors = 0;
  s->band_y = s->band_h = s->band_end = 0;
  s->ordered = false;
  s->runs = malloc(RUNS_MAX * sizeof *s->runs);
  s->colors = malloc(RENDER_SVG_SLOTS * sizeof *s->colors);
  s->order = malloc(COLORS_MAX * sizeof *s->order);
  if (!s->runs || !s->colors || !s->order) {
    free(s->runs), free(s->colors), free(s->order);
    s->runs = NULL, s->colors = NULL, s->order = NULL;
  } else {
    for (int i = 0; i < RENDER_SVG_SLOTS; i++) s->colors[i].first = -1;
  }
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\"%s%s>\n"
          "<rect width=\"%d\" height=\"%d\" fill=\"#%06x\"/>\n"
          "<style>rect,path{shape-rendering:crispEdges}</style>\n"
          "<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n",
          width, height, width, height, attrs ? " " : "", attrs ? attrs : "", width, height,
          (unsigned)background);
}

void render_svg_end(render_svg *s) {
  flush_all(s);
  fputs("</g>\n</svg>\n", s->out);
  free(s->runs), free(s->colors), free(s->order);
  s->runs = NULL, s->colors = NULL, s->order = NULL;
}
