/*
** svg.c -- the SVG backend of `astar render`: the drawing calls of render.h
** written out as <path>, <polygon>, <circle> and <text> elements. Runs of
** same-coloured cells on a row merge into one rectangle, and the
** rectangles drawn one after another (a map's cells, its grid lines) are
** written as one <path> per colour, a subpath "m dx dy h w v h h -w z" a
** rectangle: a 256 x 257 Moving AI map is some 50 KB and a handful of
** elements, which a browser opens at once, instead of thousands of <rect>s.
** Hexagons (a hex map's cells) are batched alike and written in a <g>
** whose transform maps their lattice (render.h) to pixels: per colour one
** <path> of the borders of its regions, traced along the lattice, a pair
** of small integers an edge -- a 512 x 512 map's whole search is some
** 450 KB, where a <polygon> a cell made it 30 MB. The discs drawn one after
** another in one colour (a long path's dots) make one path too.
*/
#include <stdlib.h>

#include "render.h"

#define RUNS_MAX 65536        /* rectangles or hexagons in a batch: it takes about 1.3 MB */
#define RENDER_SVG_SLOTS 1024 /* colour slots (a power of two) */
#define COLORS_MAX 512        /* colours in a batch: the slots stay at most half full */
#define RUNS_A_LINE 64        /* subpaths per line of a path's data */
#define DISCS_A_LINE 16       /* subpaths per line of a dots path */
/* Lattice points of a hexagon batch: the table stays at most half full. */
#define POINT_SLOTS ((size_t)2 * RUNS_MAX)

static void coord(FILE *out, double v);

/* ---- hexagons (runs of a hexagon batch: see render_svg_run) --------------------- */

#define EDGES_A_LINE 32 /* edges per line of a path's data */

/* A whole hexagon from corner 0, closed, for the outline path. */
static const char *const hex_shape[2] = {"l-1 1-1-1 0-2 1-1 1 1z", "l-1 1h-2l-1-1 1-1h2z"};

static unsigned point_slot(int x, int y) {
  uint32_t h = (uint32_t)x * 0x9E3779B1u + (uint32_t)y * 0x85EBCA77u;
  h ^= h >> 15;
  return h & (POINT_SLOTS - 1);
}

/* The run of the hexagon at lattice point (x, y) in the batch, -1: none. */
static int find_point(const render_svg *s, int x, int y) {
  for (unsigned slot = point_slot(x, y); s->points[slot] >= 0;
       slot = (slot + 1) & (POINT_SLOTS - 1)) {
    const render_svg_run *r = &s->runs[s->points[slot]];
    if (r->x == x && r->y == y) return s->points[slot];
  }
  return -1;
}

/* The hexagon across edge k of run i, -1: none. */
static int across(const render_svg *s, int i, int k) {
  const int(*d)[2] = render_hex_corner[s->lattice.flat];
  const render_svg_run *r = &s->runs[i];
  return find_point(s, r->x + d[k][0] + d[(k + 1) % 6][0], r->y + d[k][1] + d[(k + 1) % 6][1]);
}

/* Is edge k of run i on the border of its colour's region? */
static bool border(const render_svg *s, int i, int k) {
  const int j = across(s, i, k);
  return j < 0 || s->runs[j].h >> 6 != s->runs[i].h >> 6;
}

/* The start of a <g> holding hexagons on lattice `l`. */
static void hex_group(FILE *out, const render_hex_lattice *l) {
  fprintf(out, "<g transform=\"matrix(%.10g 0 0 %.10g %.10g %.10g)\">\n", l->ux, l->uy, l->ox,
          l->oy);
}

/* An outline path's start tag, up to its data: `width` pixels, whatever the
** lattice's scale. */
static void outline_path(FILE *out, render_rgb stroke, double width) {
  fprintf(out, "<path fill=\"none\" stroke=\"#%06x\" stroke-width=\"", (unsigned)stroke);
  coord(out, width);
  fputs("\" vector-effect=\"non-scaling-stroke\" d=\"", out);
}

/* Trace the border of a colour's region from edge k of run i around to
** it: a closed subpath along the edges, clockwise on the screen, so that
** holes (run the other way) stay empty under the nonzero rule. The loop is
** unique: three hexagons meet at a corner, so a border edge has exactly
** one border edge after it -- the next edge of its hexagon, or the one
** after that corner in the neighbour across that edge. *at is the current
** point, at[2] 0 before the path's first loop; it ends at the loop's start. */
static void trace(render_svg *s, int i, int k, int at[3]) {
  const int(*d)[2] = render_hex_corner[s->lattice.flat];
  const render_svg_run *r = &s->runs[i];
  const int sx = r->x + d[k][0], sy = r->y + d[k][1];
  fprintf(s->out, at[2] ? "m%d %dl" : "M%d %dl", sx - at[0], sy - at[1]);
  at[0] = sx, at[1] = sy, at[2] = 1;
  const int first = i, first_k = k;
  for (size_t n = 0; n <= 6 * s->nruns; n++) { /* bound: every step takes a new edge */
    s->runs[i].h |= 1 << k;
    const int k1 = (k + 1) % 6;
    int ni = i, nk = k1;
    if (!border(s, i, k1)) ni = across(s, i, k1), nk = (k + 5) % 6;
    if (ni == first && nk == first_k) break; /* "z" draws the last edge */
    const int dx = d[k1][0] - d[k][0], dy = d[k1][1] - d[k][1];
    if (n > 0 && n % EDGES_A_LINE == 0)
      fputc('\n', s->out);
    else if (n > 0 && dx >= 0) /* a minus sign separates the numbers */
      fputc(' ', s->out);
    fprintf(s->out, dy < 0 ? "%d%d" : "%d %d", dx, dy);
    i = ni, k = nk;
  }
  fputc('z', s->out);
}

/* Edges k .. k + n - 1 of run i as an open subpath of the outline; *at is
** the current point (0, 0 before the first: a path's first "m" is absolute). */
static void outline_edges(render_svg *s, int i, int k, int n, int at[2]) {
  const int(*d)[2] = render_hex_corner[s->lattice.flat];
  const int x = s->runs[i].x + d[k][0], y = s->runs[i].y + d[k][1];
  fprintf(s->out, "m%d %dl", x - at[0], y - at[1]);
  at[0] = x, at[1] = y;
  for (int e = k; e < k + n; e++) {
    const int dx = d[(e + 1) % 6][0] - d[e % 6][0], dy = d[(e + 1) % 6][1] - d[e % 6][1];
    fprintf(s->out, dx < 0 || e == k ? "%d" : " %d", dx);
    fprintf(s->out, dy < 0 ? "%d" : " %d", dy);
    at[0] += dx, at[1] += dy;
  }
}

/* The hexagon batch: per colour one path, the borders of its regions
** (its hexagons merged: a map's picture is about 4 bytes an edge between
** colours rather than 20 a hexagon); then, with an outline, one path of
** every edge on top: each hexagon's left and top ones (edges 2 to 4), and
** the others where the neighbour across them, which would draw them, is
** not in the batch. */
static void write_hexes(render_svg *s) {
  hex_group(s->out, &s->lattice);
  for (int c = 0; c < s->ncolors; c++) {
    const render_svg_color *color = &s->colors[s->order[c]];
    fprintf(s->out, "<path fill=\"#%06x\" d=\"", (unsigned)color->color);
    int at[3] = {0, 0, 0};
    for (int i = color->first; i >= 0; i = s->runs[i].next)
      for (int k = 0; k < 6; k++)
        if (!(s->runs[i].h >> k & 1) && border(s, i, k)) {
          if (at[2]) fputc('\n', s->out);
          trace(s, i, k, at);
        }
    fputs("\"/>\n", s->out);
  }
  if (s->stroke_width > 0) {
    outline_path(s->out, s->stroke, s->stroke_width);
    int at[2] = {0, 0};
    for (size_t i = 0; i < s->nruns; i++) {
      if (i > 0 && i % RUNS_A_LINE == 0) fputc('\n', s->out);
      outline_edges(s, (int)i, 2, 3, at);
      for (int k = 5; k != 2; k = (k + 1) % 6)
        if (across(s, (int)i, k) < 0) outline_edges(s, (int)i, k, 1, at);
    }
    fputs("\"/>\n", s->out);
  }
  fputs("</g>\n", s->out);
  for (size_t i = 0; i < s->nruns; i++) s->points[s->runs[i].w] = -1;
  for (int c = 0; c < s->ncolors; c++) s->colors[s->order[c]].first = -1;
}

/* Write the batch, one path per colour in order of first use, and empty it. */
static void write_batch(render_svg *s) {
  if (s->hexes) {
    write_hexes(s);
    s->nruns = 0;
    s->ncolors = 0;
    return;
  }
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

/* The batch's next run into the chain of its colour; returns the colour's slot. */
static unsigned add_to_color(render_svg *s, render_rgb color) {
  unsigned slot = (color * 2654435761u) & (RENDER_SVG_SLOTS - 1);
  while (s->colors[slot].first >= 0 && s->colors[slot].color != color)
    slot = (slot + 1) & (RENDER_SVG_SLOTS - 1);
  render_svg_color *c = &s->colors[slot];
  const int i = (int)s->nruns++;
  if (c->first < 0) {
    c->color = color;
    c->first = i;
    s->order[s->ncolors++] = (int)slot;
  } else {
    s->runs[c->last].next = i;
  }
  c->last = i;
  return slot;
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
  if (s->hexes) {
    if (s->nruns > 0) write_batch(s);
    s->hexes = false;
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
  s->runs[s->nruns] = (render_svg_run){x, y, w, h, -1};
  (void)add_to_color(s, color);
}

/* The pending rectangle into the batch. */
static void flush(render_svg *s) {
  if (!s->pending) return;
  add_run(s, s->px, s->py, s->pw, s->ph, s->pcolor);
  s->pending = false;
}

/* The discs drawn last: a <circle>, or the end of their path. */
static void end_discs(render_svg *s) {
  if (s->ndiscs == 1) {
    fputs("<circle cx=\"", s->out);
    coord(s->out, s->dx);
    fputs("\" cy=\"", s->out);
    coord(s->out, s->dy);
    fputs("\" r=\"", s->out);
    coord(s->out, s->dr);
    fprintf(s->out, "\" fill=\"#%06x\"/>\n", (unsigned)s->dcolor);
  } else if (s->ndiscs > 1) {
    fputs("\"/>\n", s->out);
  }
  s->ndiscs = 0;
}

/* Before any element other than a rectangle: what was drawn before it. */
static void flush_all(render_svg *s) {
  end_discs(s);
  flush(s);
  if (s->runs && s->nruns) write_batch(s);
}

static void svg_rect(render_canvas *c, int x, int y, int w, int h, render_rgb color) {
  render_svg *s = (render_svg *)c;
  if (w <= 0 || h <= 0) return;
  end_discs(s);
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
  else if (hundredths % 10 == 0)
    fprintf(out, "%.1f", (double)hundredths / 100);
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

/* A disc as a subpath: two half circles from its left end. */
static void disc_subpath(FILE *out, double cx, double cy, double r) {
  fputc('M', out);
  coord(out, cx - r);
  fputc(' ', out);
  coord(out, cy);
  for (int k = 0; k < 2; k++) {
    fputc('a', out);
    coord(out, r);
    fputc(' ', out);
    coord(out, r);
    fputs(" 0 1 0 ", out);
    coord(out, k ? -2 * r : 2 * r);
    fputs(" 0", out);
  }
  fputc('z', out);
}

static void svg_disc(render_canvas *c, double cx, double cy, double r, render_rgb color) {
  render_svg *s = (render_svg *)c;
  if (s->ndiscs > 0 && color == s->dcolor && r == s->dr) {
    if (s->ndiscs == 1) {
      /* Anti-aliased: the style makes paths crisp. */
      fprintf(s->out, "<path style=\"shape-rendering:auto\" fill=\"#%06x\" d=\"", (unsigned)color);
      disc_subpath(s->out, s->dx, s->dy, r);
    }
    if (s->ndiscs % DISCS_A_LINE == 0) fputc('\n', s->out);
    disc_subpath(s->out, cx, cy, r);
    s->ndiscs++;
    return;
  }
  flush_all(s);
  s->ndiscs = 1;
  s->dx = cx, s->dy = cy, s->dr = r;
  s->dcolor = color;
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

/* Add a hexagon to the batch, writing the batch first when it holds
** rectangles, lies on another lattice or has another outline, already has
** a hexagon at this point (which this one is to cover), or is full. */
static void svg_hexagon(render_canvas *c, const render_hex_lattice *l, int x, int y,
                        render_rgb fill, render_rgb stroke, double stroke_width) {
  render_svg *s = (render_svg *)c;
  end_discs(s);
  flush(s);
  if (s->runs && !s->points) {
    if (s->nruns) write_batch(s);
    s->points = malloc(POINT_SLOTS * sizeof *s->points);
    for (size_t i = 0; s->points && i < POINT_SLOTS; i++) s->points[i] = -1;
  }
  if (!s->runs || !s->points) { /* no batch: the hexagon now */
    const int sx = x + render_hex_corner[l->flat][0][0], sy = y + render_hex_corner[l->flat][0][1];
    hex_group(s->out, l);
    fprintf(s->out, "<path fill=\"#%06x\" d=\"M%d %d%s\"/>\n", (unsigned)fill, sx, sy,
            hex_shape[l->flat]);
    if (stroke_width > 0) {
      outline_path(s->out, stroke, stroke_width);
      fprintf(s->out, "M%d %d%s\"/>\n", sx, sy, hex_shape[l->flat]);
    }
    fputs("</g>\n", s->out);
    return;
  }
  const double width = stroke_width > 0 ? stroke_width : 0;
  const bool same = s->hexes && l->ox == s->lattice.ox && l->oy == s->lattice.oy &&
                    l->ux == s->lattice.ux && l->uy == s->lattice.uy &&
                    l->flat == s->lattice.flat && width == s->stroke_width &&
                    (width == 0 || stroke == s->stroke);
  unsigned slot = point_slot(x, y);
  while (same && s->points[slot] >= 0 &&
         (s->runs[s->points[slot]].x != x || s->runs[s->points[slot]].y != y))
    slot = (slot + 1) & (POINT_SLOTS - 1);
  if (s->nruns > 0 &&
      (!same || s->points[slot] >= 0 || s->nruns == RUNS_MAX || s->ncolors == COLORS_MAX)) {
    write_batch(s);
    slot = point_slot(x, y); /* the batch is empty: the slot is free */
  }
  s->hexes = true;
  s->lattice = *l;
  s->stroke = stroke;
  s->stroke_width = width;
  s->points[slot] = (int)s->nruns;
  const size_t i = s->nruns;
  s->runs[i] = (render_svg_run){x, y, (int)slot, 0, -1};
  s->runs[i].h = (int)(add_to_color(s, fill) << 6);
}

static const render_ops svg_ops = {svg_rect, svg_triangle, svg_disc, svg_text, svg_hexagon};

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
  s->hexes = false;
  s->points = NULL;
  s->ndiscs = 0;
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

void render_svg_flush(render_svg *s) {
  flush_all(s);
}

void render_svg_end(render_svg *s) {
  flush_all(s);
  fputs("</g>\n</svg>\n", s->out);
  free(s->runs), free(s->colors), free(s->order), free(s->points);
  s->runs = NULL, s->colors = NULL, s->order = NULL, s->points = NULL;
}
