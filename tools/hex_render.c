/*
** hex_render.c -- `astar render MAP.hex ...`: the picture of a search on a
** hex map, drawn as cmd_render.c draws square maps and in its colours
** (render.h): hexagons, walls black, terrain darker the costlier, open
** cells blue, closed cells red, the path green, start and goal, and on small
** maps F (top left), G (bottom left), H (bottom right) and an arrow to the
** parent in each visited cell; --step K and --frames N as for square maps.
** The search is the engine's on the map as a space; its observer records
** each cell's state.
**
** Geometry: --cell PX is the distance between neighbouring centres (the
** hexagon's width across its flat sides), so a hex picture's cells are as
** big as a square one's at the same --cell. The labels sit in the largest
** upright box that fits well inside the hexagon.
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render.h"

/* Maps up to this size get F/G/H labels unless --no-fgh. */
#define FGH_AUTO_MAX 40
#define MAX_PIXELS (64L * 1024 * 1024)
#define MAX_FRAMES 1000
#define ROOT3 1.7320508075688772935
#define PAD 1.0 /* pixels around the map, for the outlines of the edge cells */

enum { UNSEEN = 0, OPEN = 1, CLOSED = 2 };

typedef struct hjob {
  /* the query */
  const astar_hex_grid *grid;
  astar_space space;
  astar_engine_options eo;
  astar_point start, goal;
  int32_t w, h;
  float max_terrain;

  /* what the search did, per cell = node id (g, hv, parent only with labels) */
  uint8_t *state;
  double *g, *hv;
  int64_t *parent; /* node, -1 for none */
  size_t nopen, nclosed;
  uint64_t expanded;

  /* the outcome (first pass) */
  cli_solution sol;

  /* picture layout */
  double cell;                /* pixels between neighbouring centres */
  double radius;              /* centre to corner */
  render_hex_lattice lattice; /* the pixels of cell centres and corners */
  int width, height;
  bool fgh;
  int text_scale; /* 0: no labels fit */
  bool integers;  /* costs print as integers */
  bool svg;
  const char *out;

  /* snapshots after targets[i] expansions */
  const uint64_t *targets;
  size_t ntargets, next_target;
  uint64_t total;
  bool failed;
  render_raster raster;
  bool have_raster;
} hjob;

/* ---- recording ----------------------------------------------------------------- */

static void set_state(hjob *j, size_t i, uint8_t s) {
  const uint8_t old = j->state[i];
  if (old == s) return;
  if (old == OPEN) j->nopen--;
  if (old == CLOSED) j->nclosed--;
  if (s == OPEN) j->nopen++;
  if (s == CLOSED) j->nclosed++;
  j->state[i] = s;
}

static void take_snapshot(hjob *j, size_t index, bool final);

/* A bidirectional search records both halves in the same cells: each
** shows the cheaper g seen from either end, with that end's parent. */
static void observe(void *ctx, const astar_engine_event *e) {
  hjob *j = ctx;
  if (e->type == ASTAR_EVENT_EXPAND || e->type == ASTAR_EVENT_GOAL) {
    /* The state after e->expanded - 1 expansions is complete. */
    while (j->next_target < j->ntargets && j->targets[j->next_target] < e->expanded) {
      take_snapshot(j, j->next_target, false);
      j->next_target++;
    }
    j->expanded = e->expanded;
  }
  if (e->node >= j->space.node_count) return;
  const size_t i = e->node;
  const uint8_t old = j->state[i];
  switch (e->type) {
  case ASTAR_EVENT_PUSH:
  case ASTAR_EVENT_IMPROVE:
    if (old != CLOSED) set_state(j, i, OPEN);
    break;
  case ASTAR_EVENT_REOPEN:
    set_state(j, i, OPEN);
    break;
  default: /* EXPAND, GOAL */
    set_state(j, i, CLOSED);
  }
  if (j->g && (old == UNSEEN || e->g <= j->g[i])) {
    j->g[i] = e->g;
    j->hv[i] = e->h;
    j->parent[i] = e->parent == ASTAR_NODE_NONE ? -1 : (int64_t)e->parent;
  }
}

static bool search(hjob *j, const uint64_t *targets, size_t ntargets) {
  memset(j->state, 0, (size_t)j->space.node_count);
  j->nopen = j->nclosed = 0;
  j->expanded = 0;
  j->targets = targets;
  j->ntargets = ntargets;
  j->next_target = 0;
  astar_engine_options o = j->eo;
  o.observer = observe;
  o.observer_ctx = j;
  cli_solution_free(&j->sol);
  return cli_hex_run(j->grid, &o, 0, 0, j->start, j->goal, &j->sol);
}

/* ---- layout -------------------------------------------------------------------- */

static void format_value(char *buf, size_t size, double v, bool integers) {
  if (integers && v == floor(v) && fabs(v) < 1e9)
    snprintf(buf, size, "%.0f", v);
  else
    snprintf(buf, size, "%.1f", v);
}

static bool flat(const hjob *j) {
  return astar_hex_grid_orientation(j->grid) == ASTAR_HEX_FLAT;
}

/* The label box of a cell `cell` pixels across: 80% of the width across
** the flat sides by the height the slanted sides leave there. */
static void label_box(const hjob *j, double cell, double *bw, double *bh) {
  const double across = 0.8 * cell, along = 1.2 * cell / ROOT3;
  *bw = flat(j) ? along : across;
  *bh = flat(j) ? across : along;
}

static int label_margin(double cell) {
  return cell / 24 > 2 ? (int)(cell / 24) : 2;
}

/* Do F (top), G and H (bottom) of these pixel widths fit at `scale`, with
** room for the arrow between them (as for square cells)? */
static bool labels_fit(const hjob *j, double cell, int scale, int wf, int wg, int wh) {
  double bw, bh;
  label_box(j, cell, &bw, &bh);
  const int m = label_margin(cell), row = RENDER_GLYPH_H * scale;
  return wf + 2 * m + 1 <= bw && wg + wh + 2 * m + 1 + RENDER_ADVANCE * scale <= bw &&
         2 * (row + m) <= bh * 0.6;
}

static void widest_labels(const hjob *j, int *wf, int *wg, int *wh) {
  *wf = *wg = *wh = 0;
  char buf[64];
  for (size_t i = 0; i < j->space.node_count; i++) {
    if (j->state[i] == UNSEEN) continue;
    int k;
    format_value(buf, sizeof buf, j->g[i] + j->hv[i], j->integers);
    if ((k = (int)strlen(buf)) > *wf) *wf = k;
    format_value(buf, sizeof buf, j->g[i], j->integers);
    if ((k = (int)strlen(buf)) > *wg) *wg = k;
    format_value(buf, sizeof buf, j->hv[i], j->integers);
    if ((k = (int)strlen(buf)) > *wh) *wh = k;
  }
}

#define TEXT_W(n, s) ((n)*RENDER_ADVANCE * (s) - (s))

/* The cell size (the user's, or: with labels the smallest from 72 px that
** fits them at scale 2; without, about 1024 px across) and the label scale. */
static void choose_layout(hjob *j, int cell_arg) {
  j->text_scale = 0;
  if (!j->fgh) {
    const int side = j->w > j->h ? j->w : j->h, fit = 1024 / (side + 1);
    j->cell = cell_arg ? cell_arg : fit < 3 ? 3 : fit > 16 ? 16 : fit;
  } else {
    int nf, ng, nh;
    widest_labels(j, &nf, &ng, &nh);
    if (nf == 0) nf = ng = nh = 1;
    if (cell_arg) {
      j->cell = cell_arg;
    } else {
      j->cell = 72;
      while (j->cell < 128 &&
             !labels_fit(j, j->cell, 2, TEXT_W(nf, 2), TEXT_W(ng, 2), TEXT_W(nh, 2)))
        j->cell += 8;
    }
    const int top = (int)j->cell / 32 > 1 ? (int)j->cell / 32 : 1;
    for (int s = 1; s <= 8 && s <= top; s++)
      if (labels_fit(j, j->cell, s, TEXT_W(nf, s), TEXT_W(ng, s), TEXT_W(nh, s))) j->text_scale = s;
  }
  j->radius = j->cell / ROOT3;
  const double r = j->radius;
  j->lattice = (render_hex_lattice){PAD, PAD, flat(j) ? r / 2 : r * ROOT3 / 2,
                                    flat(j) ? r * ROOT3 / 2 : r / 2, flat(j)};
  const double wide = flat(j) ? r * (1.5 * j->w + 0.5) : j->cell * (j->w + 0.5);
  const double high = flat(j) ? j->cell * (j->h + 0.5) : r * (1.5 * j->h + 0.5);
  j->width = (int)ceil(wide + 2 * PAD);
  j->height = (int)ceil(high + 2 * PAD);
}

/* ---- drawing --------------------------------------------------------------------- */

static render_rgb scale_rgb(render_rgb c, double k) {
  const unsigned r = (unsigned)((c >> 16 & 0xFF) * k + 0.5),
                 g = (unsigned)((c >> 8 & 0xFF) * k + 0.5), b = (unsigned)((c & 0xFF) * k + 0.5);
  return r << 16 | g << 8 | b;
}

static bool is_dark(render_rgb c) {
  return 0.299 * (c >> 16 & 0xFF) + 0.587 * (c >> 8 & 0xFF) + 0.114 * (c & 0xFF) < 128;
}

/* As cmd_render.c: factor 1 for cost <= 1 down to 0.5 for the costliest
** terrain, on a log scale, in steps of 1/32. */
static double terrain_shade(const hjob *j, int32_t x, int32_t y) {
  if (j->max_terrain <= 1.0f) return 1.0;
  const float t = astar_hex_grid_terrain(j->grid, x, y);
  if (t <= 1.0f) return 1.0;
  const double k = 1.0 - 0.5 * log((double)t) / log((double)j->max_terrain);
  return floor(k * 32 + 0.5) / 32;
}

static bool same(astar_point a, int32_t x, int32_t y) {
  return a.x == x && a.y == y;
}

static render_rgb cell_color(const hjob *j, const uint8_t *on_path, int32_t x, int32_t y) {
  if (!astar_hex_grid_passable(j->grid, x, y)) return RENDER_C_WALL;
  if (same(j->start, x, y)) return RENDER_C_START;
  if (same(j->goal, x, y)) return RENDER_C_GOAL;
  const size_t i = (size_t)y * (size_t)j->w + (size_t)x;
  render_rgb tint = RENDER_C_BACKGROUND;
  if (on_path && on_path[i])
    tint = j->fgh ? RENDER_C_PATH_LIGHT : RENDER_C_PATH;
  else if (j->state[i] == OPEN)
    tint = j->fgh ? RENDER_C_OPEN : RENDER_C_OPEN_STRONG;
  else if (j->state[i] == CLOSED)
    tint = RENDER_C_CLOSED;
  return scale_rgb(tint, terrain_shade(j, x, y));
}

/* The lattice point (render.h) of a cell's centre: the library's centre,
** in steps of the lattice (whole numbers, rounded off the last bits). */
static void lattice_point(const hjob *j, int32_t x, int32_t y, int *lx, int *ly) {
  double c[2];
  const astar_point p = {x, y};
  astar_hex_center(astar_hex_grid_orientation(j->grid), astar_hex_grid_layout(j->grid), p, c);
  *lx = (int)lround(c[0] * j->radius / j->lattice.ux);
  *ly = (int)lround(c[1] * j->radius / j->lattice.uy);
}

static void center(const hjob *j, int32_t x, int32_t y, double *cx, double *cy) {
  int lx, ly;
  lattice_point(j, x, y, &lx, &ly);
  *cx = j->lattice.ox + lx * j->lattice.ux;
  *cy = j->lattice.oy + ly * j->lattice.uy;
}

/* The arrow from the centre towards the parent, clear of the label rows
** (`band` pixels at the top and bottom of the label box). */
static void draw_arrow(render_canvas *c, double cx, double cy, double dx, double dy, double cell,
                       double bh, int band, render_rgb color) {
  const double len = sqrt(dx * dx + dy * dy);
  if (len == 0) return;
  dx /= len, dy /= len;
  double reach = cell * 0.32;
  if (fabs(dy) > 0.01) reach = fmin(reach, (bh / 2 - band) / fabs(dy));
  reach = fmax(reach, cell * 0.15);
  /* Short arrows (towards the label rows) keep a shaft beside their head. */
  const double head = fmin(cell * 0.12, reach * 0.45), half = head * 0.54;
  const double width = fmax(1.2, cell * 0.03);
  const double tipx = cx + dx * reach, tipy = cy + dy * reach;
  const double bx = tipx - dx * head, by = tipy - dy * head;
  render_line(c, cx, cy, bx + dx * 0.5, by + dy * 0.5, width, color);
  const double tri[6] = {tipx,           tipy,           bx - dy * half,
                         by + dx * half, bx + dy * half, by - dx * half};
  c->ops->triangle(c, tri, color);
  c->ops->disc(c, cx, cy, fmax(1.5, cell * 0.045), color);
}

static void draw_labels(const hjob *j, render_canvas *c, int32_t x, int32_t y, render_rgb fill) {
  const size_t i = (size_t)y * (size_t)j->w + (size_t)x;
  double cx, cy, bw, bh;
  center(j, x, y, &cx, &cy);
  label_box(j, j->cell, &bw, &bh);
  const int m = label_margin(j->cell);
  int s = j->text_scale;
  const int left = (int)floor(cx - bw / 2), right = (int)ceil(cx + bw / 2);
  const int top = (int)floor(cy - bh / 2), bottom = (int)ceil(cy + bh / 2);
  const render_rgb ink = is_dark(fill) ? RENDER_C_LIGHT : RENDER_C_DARK;
  char f[64], g[64], h[64];
  format_value(f, sizeof f, j->g[i] + j->hv[i], j->integers);
  format_value(g, sizeof g, j->g[i], j->integers);
  format_value(h, sizeof h, j->hv[i], j->integers);
  /* An earlier moment can have longer values than the layout allowed for. */
  while (s > 0 && !labels_fit(j, j->cell, s, render_text_width(f, s), render_text_width(g, s),
                              render_text_width(h, s)))
    s--;
  const int band = m + RENDER_GLYPH_H * (s ? s : 1) + 2;
  if (s > 0) {
    const int low = bottom - m - RENDER_GLYPH_H * s;
    c->ops->text(c, left + m + 1, top + m, RENDER_LEFT, s, f, ink);
    c->ops->text(c, left + m + 1, low, RENDER_LEFT, s, g, ink);
    c->ops->text(c, right - m, low, RENDER_RIGHT, s, h, ink);
    const char *mark = same(j->start, x, y) ? "S" : same(j->goal, x, y) ? "G" : NULL;
    if (mark && render_text_width(f, s) + 2 * m + 1 + (RENDER_ADVANCE + RENDER_GLYPH_W) * s <= bw)
      c->ops->text(c, right - m, top + m, RENDER_RIGHT, s, mark, ink);
  }
  if (j->parent[i] >= 0) {
    const int32_t px = (int32_t)(j->parent[i] % j->w), py = (int32_t)(j->parent[i] / j->w);
    double qx, qy;
    center(j, px, py, &qx, &qy);
    draw_arrow(c, cx, cy, qx - cx, qy - cy, j->cell, bh, band, ink);
  }
}

static void draw_frame(const hjob *j, render_canvas *c, bool final) {
  const int32_t w = j->w, h = j->h;
  uint8_t *on_path = NULL;
  if (final && j->sol.len) {
    on_path = calloc((size_t)w * (size_t)h, 1);
    for (size_t k = 0; on_path && k < j->sol.len; k++)
      on_path[(size_t)j->sol.path[k].y * (size_t)w + (size_t)j->sol.path[k].x] = 1;
  }
  const bool outline = j->cell >= 12;
  double cx, cy;
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      const render_rgb col = cell_color(j, on_path, x, y);
      if (col == RENDER_C_BACKGROUND && !outline) continue;
      int lx, ly;
      lattice_point(j, x, y, &lx, &ly);
      c->ops->hexagon(c, &j->lattice, lx, ly, col, RENDER_C_GRID, outline ? 1.0 : 0.0);
    }
  }
  /* Small cells: the path as dots that show. */
  if (on_path && j->cell < 6) {
    for (size_t k = 0; k < j->sol.len; k++) {
      center(j, j->sol.path[k].x, j->sol.path[k].y, &cx, &cy);
      c->ops->disc(c, cx, cy, 1.5, RENDER_C_PATH);
    }
  }
  if (j->fgh && j->text_scale > 0)
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        if (j->state[(size_t)y * (size_t)w + (size_t)x] != UNSEEN)
          draw_labels(j, c, x, y, cell_color(j, on_path, x, y));
  /* Start and goal: big enough to find on any map. */
  const astar_point ends[2] = {j->start, j->goal};
  const render_rgb colors[2] = {RENDER_C_START, RENDER_C_GOAL};
  for (int k = 0; k < 2; k++) {
    const int32_t x = ends[k].x, y = ends[k].y;
    center(j, x, y, &cx, &cy);
    if (j->cell < 12) {
      const double r = fmax(4.5, j->cell * 1.2);
      c->ops->disc(c, cx, cy, r + 1, RENDER_C_DARK);
      c->ops->disc(c, cx, cy, r, colors[k]);
    } else if (!j->fgh || j->text_scale == 0 ||
               j->state[(size_t)y * (size_t)w + (size_t)x] == UNSEEN) {
      const int s = (int)j->cell / 14 > 1 ? (int)j->cell / 14 : 1;
      c->ops->text(c, (int)floor(cx + 1), (int)floor(cy - RENDER_GLYPH_H * s / 2.0), RENDER_CENTER,
                   s, k ? "G" : "S", RENDER_C_LIGHT);
    }
  }
  free(on_path);
}

/* ---- output files -------------------------------------------------------------------- */

static bool write_picture(hjob *j, const char *name, bool final) {
  cli_out out;
  if (!cli_out_open(&out, name)) return false;
  FILE *f = out.f;
  bool ok = true;
  size_t bytes = 0;
  errno = 0;
  if (j->svg) {
    char attrs[256];
    snprintf(attrs, sizeof attrs,
             "data-expanded=\"%llu\" data-open=\"%zu\" data-closed=\"%zu\" data-hex=\"%s\" "
             "data-cell=\"%g\"",
             (unsigned long long)j->expanded, j->nopen, j->nclosed, cli_hex_shape_name(j->grid),
             j->cell);
    render_svg s;
    render_svg_begin(&s, f, j->width, j->height, RENDER_C_BACKGROUND, attrs);
    draw_frame(j, &s.base, final);
    render_svg_end(&s);
    ok = fflush(f) == 0 && !ferror(f);
    const long pos = ftell(f);
    bytes = pos > 0 ? (size_t)pos : 0;
  } else {
    if (!j->have_raster) {
      if (!render_raster_init(&j->raster, j->width, j->height, RENDER_C_BACKGROUND)) {
        cli_out_abort(&out);
        cli_error("%s: cannot allocate a %d x %d picture", name, j->width, j->height);
        return false;
      }
      j->have_raster = true;
    } else {
      j->raster.base.ops->rect(&j->raster.base, 0, 0, j->width, j->height, RENDER_C_BACKGROUND);
    }
    draw_frame(j, &j->raster.base, final);
    const char *stored = getenv("ASTAR_PNG_STORED");
    ok =
        render_png_write(f, j->width, j->height, j->raster.rgb, stored && stored[0] == '1', &bytes);
  }
  if (!ok) out.err = errno ? errno : EIO; /* nothing of a failed picture is kept */
  if (!cli_out_close(&out)) return false;
  printf("wrote:    %s (%d x %d px, %zu bytes): after %llu of %llu expansions, %zu open, %zu "
         "closed%s\n",
         name, j->width, j->height, bytes, (unsigned long long)j->expanded,
         (unsigned long long)j->total, j->nopen, j->nclosed,
         final && j->sol.len ? ", path shown" : "");
  return true;
}

static void take_snapshot(hjob *j, size_t index, bool final) {
  if (j->failed) return;
  char name[4096];
  cli_frame_name(name, sizeof name, j->out, index, j->ntargets > 1);
  if (!write_picture(j, name, final)) j->failed = true;
}

/* ---- the command ---------------------------------------------------------------------- */

void cli_hex_render_intro(FILE *out) {
  fprintf(out,
          "usage: astar render MAP.hex SX SY GX GY -o FILE.svg|FILE.png [OPTIONS]\n"
          "       astar render MAP.hex -o FILE [OPTIONS]   (a map with S and G cells)\n"
          "\n"
          "Draw what the search did on a hex map, as for square maps: hexagons, walls\n"
          "black, terrain darker the costlier, open cells blue, closed cells red, the path\n"
          "green, the start green and the goal red. On maps up to %d x %d cells each\n"
          "visited cell shows F (top left), G (bottom left), H (bottom right) and an\n"
          "arrow to its parent. --cell PX is the distance between neighbouring cell\n"
          "centres.\n",
          FGH_AUTO_MAX, FGH_AUTO_MAX);
}

void cli_hex_render_outro(FILE *out) {
  fputs("Exit status: 0 picture(s) written (whatever the search found); 1 unreadable\n"
        "or malformed map, a blocked start or goal, or an unwritable file; 2 usage error\n"
        "(a start or goal outside the map included). See 'astar --help'.\n",
        out);
}

static bool has_suffix(const char *s, const char *suffix) {
  const size_t n = strlen(s), k = strlen(suffix);
  return n > k && strcmp(s + n - k, suffix) == 0;
}

static void job_free(hjob *j) {
  free(j->state);
  free(j->g);
  free(j->hv);
  free(j->parent);
  cli_solution_free(&j->sol);
  if (j->have_raster) render_raster_free(&j->raster);
}

int cli_hex_render(const cli_args *a, const cli_render_args *r, const astar_engine_options *eo) {
  hjob j;
  memset(&j, 0, sizeof j);
  j.eo = *eo;
  const char *const *pos = a->pos;
  const char *pos_names[5] = {"MAP", "SX", "SY", "GX", "GY"};
  const int npos = a->npos, fgh = r->fgh;
  const long cell_arg = r->cell, frames = r->frames;
  const uint64_t step = r->step;
  const bool have_step = r->have_step;
  j.out = r->out;
  if (npos > 5) return cli_usage_error("render: unexpected argument '%s'", pos[5]);
  if (npos != 1 && npos != 5)
    return cli_usage_error("render: expected MAP and four coordinates SX SY GX GY, or MAP alone "
                           "(see 'astar render MAP.hex --help')");
  if (!j.out) return cli_usage_error("render: missing -o FILE.svg or -o FILE.png");
  j.svg = has_suffix(j.out, ".svg");
  if (!j.svg && !has_suffix(j.out, ".png"))
    return cli_usage_error("-o: expected a file name ending in .svg or .png, got '%s'", j.out);
  if (have_step && frames)
    return cli_usage_error("render: --step and --frames cannot be used together");
  int32_t c[4] = {0, 0, 0, 0};
  for (int i = 1; i < npos; i++)
    if (!cli_parse_cells(pos_names[i], NULL, pos[i], 1, &c[i - 1])) return CLI_EXIT_USAGE;
  if (!cli_output_writable(j.out)) return CLI_EXIT_FAIL;

  const char *map = pos[0];
  astar_hex_grid *grid;
  if (!cli_load_hex_map(map, &grid, &j.start, &j.goal)) return CLI_EXIT_FAIL;
  j.grid = grid;
  j.w = astar_hex_grid_width(grid);
  j.h = astar_hex_grid_height(grid);
  astar_hex_space(grid, &j.space);
  int rc = CLI_EXIT_FAIL;
  if (npos == 5) {
    j.start = (astar_point){c[0], c[1]};
    j.goal = (astar_point){c[2], c[3]};
  } else if (j.start.x < 0 || j.goal.x < 0) {
    rc = cli_usage_error("render: %s has no %s cell; give the coordinates SX SY GX GY", map,
                         j.start.x >= 0  ? "'G'"
                         : j.goal.x >= 0 ? "'S'"
                                         : "'S' or 'G'");
    goto done;
  }
  const size_t ncells = (size_t)j.w * (size_t)j.h;
  for (int k = 0; k < 2; k++) {
    const astar_point q = k ? j.goal : j.start;
    const char *what = k ? "goal" : "start";
    if (!astar_hex_grid_contains(grid, q.x, q.y)) {
      rc = cli_usage_error("render: the %s (%d,%d) lies outside the %d x %d map %s (x 0..%d, "
                           "y 0..%d)",
                           what, (int)q.x, (int)q.y, (int)j.w, (int)j.h, map, (int)j.w - 1,
                           (int)j.h - 1);
      goto done;
    }
    if (!astar_hex_grid_passable(grid, q.x, q.y)) {
      cli_error("render: the %s cell (%d,%d) is blocked", what, (int)q.x, (int)q.y);
      goto done;
    }
  }
  j.fgh = fgh >= 0 ? fgh == 1 : j.w <= FGH_AUTO_MAX && j.h <= FGH_AUTO_MAX;
  j.max_terrain = 1.0f;
  j.integers = j.eo.weight == floor(j.eo.weight);
  for (int32_t y = 0; y < j.h; y++) {
    for (int32_t x = 0; x < j.w; x++) {
      const float t = astar_hex_grid_terrain(grid, x, y);
      if (astar_hex_grid_passable(grid, x, y) && t > j.max_terrain) j.max_terrain = t;
      if (t != floorf(t)) j.integers = false;
    }
  }
  if (astar_hex_grid_min_terrain(grid) != floorf(astar_hex_grid_min_terrain(grid)))
    j.integers = false;
  j.state = calloc(ncells, 1);
  if (j.fgh) {
    j.g = malloc(ncells * sizeof *j.g);
    j.hv = malloc(ncells * sizeof *j.hv);
    j.parent = malloc(ncells * sizeof *j.parent);
  }
  if (!j.state || (j.fgh && (!j.g || !j.hv || !j.parent))) {
    cli_error("render: cannot allocate the search: %s", astar_strerror(ASTAR_NO_MEMORY));
    goto done;
  }

  /* First pass: the whole search, for the outcome, the number of expansions
  ** (to place frames) and the widest labels (to size cells). */
  if (!search(&j, NULL, 0)) goto done;
  j.total = j.sol.result.stats.expanded;
  choose_layout(&j, (int)cell_arg);
  if (j.width > 32768 || j.height > 32768 ||
      (double)j.width * (double)j.height > (double)MAX_PIXELS) {
    rc = cli_usage_error("render: a %d x %d map at %g px a cell is too big a picture; give a "
                         "smaller --cell%s",
                         (int)j.w, (int)j.h, j.cell, j.fgh ? " or --no-fgh" : "");
    goto done;
  }
  if (j.fgh && j.text_scale == 0)
    cli_error("render: note: %g px cells are too small for F/G/H labels (try --cell 72)", j.cell);

  const char *label = strcmp(map, "-") == 0 ? "(stdin)" : map;
  cli_print_hex_map_line(stdout, label, grid);
  fputs("options:  ", stdout);
  cli_hex_describe(stdout, &j.eo);
  printf("\nquery:    (%d,%d) -> (%d,%d)\n", (int)j.start.x, (int)j.start.y, (int)j.goal.x,
         (int)j.goal.y);
  cli_print_solution(stdout, &j.sol, false);

  uint64_t targets[MAX_FRAMES];
  if (have_step || frames) {
    /* Second pass: the same search, taking pictures on the way; frame i of
    ** N after round((i+1) * total / N) expansions. */
    size_t n;
    if (have_step) {
      targets[0] = step;
      n = 1;
    } else {
      for (long i = 0; i < frames; i++)
        targets[i] = (uint64_t)(((double)(i + 1) * (double)j.total) / (double)frames + 0.5);
      n = (size_t)frames;
    }
    if (!search(&j, targets, n)) goto done;
    /* The moments at or after the end show its final state. */
    while (j.next_target < j.ntargets) {
      take_snapshot(&j, j.next_target, true);
      j.next_target++;
    }
  } else {
    j.ntargets = 1;
    take_snapshot(&j, 0, true);
  }
  rc = j.failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;

done:
  job_free(&j);
  astar_hex_grid_free(grid);
  return rc;
}
