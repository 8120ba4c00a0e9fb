/*
** svg.c -- the SVG backend of `astar render`: the drawing calls of render.h
** written out as <rect>, <polygon>, <circle> and <text> elements. Runs of
** same-coloured cells on a row merge into one <rect>, which keeps the file
** small for maps of uniform regions.
*/
#include "render.h"

static void flush(render_svg *s) {
  if (!s->pending) return;
  fprintf(s->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#%06x\"/>\n", s->px,
          s->py, s->pw, s->ph, (unsigned)s->pcolor);
  s->pending = false;
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
  flush(s);
  fputs("<polygon points=\"", s->out);
  for (int i = 0; i < 6; i++) {
    coord(s->out, t[i]);
    if (i < 5) fputc(i % 2 ? ' ' : ',', s->out);
  }
  fprintf(s->out, "\" fill=\"#%06x\"/>\n", (unsigned)color);
}

static void svg_disc(render_canvas *c, double cx, double cy, double r, render_rgb color) {
  render_svg *s = (render_svg *)c;
  flush(s);
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
  flush(s);
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
  flush(s);
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
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\"%s%s>\n"
          "<rect width=\"%d\" height=\"%d\" fill=\"#%06x\"/>\n"
          "<style>rect{shape-rendering:crispEdges}</style>\n"
          "<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n",
          width, height, width, height, attrs ? " " : "", attrs ? attrs : "", width, height,
          (unsigned)background);
}

void render_svg_end(render_svg *s) {
  flush(s);
  fputs("</g>\n</svg>\n", s->out);
}
