/*
** cmd_render.c -- `astar render MAP SX SY GX GY -o FILE.png|FILE.svg`: a
** picture of what A* did, like the tutorials' figures. The search observer
** records each cell's state (open, closed, g, h, parent); the picture shows
** walls black, terrain darker the costlier it is, open cells blue, closed
** cells red, the path green, start and goal, and on small maps F (top left),
** G (bottom left), H (bottom right) and an arrow to the parent in each
** visited cell. --step K draws the search after K expansions; --frames N
** draws N moments spread over it.
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <astar/anyangle.h>

#include "cli.h"
#include "render.h"

/* Maps up to this size get F/G/H labels unless --no-fgh. */
#define FGH_AUTO_MAX 40
/* Raster images are held in memory, 3 bytes a pixel. */
#define MAX_PIXELS (64L * 1024 * 1024)
#define MAX_FRAMES 1000

/* Colours (render.h). */
#define C_BACKGROUND RENDER_C_BACKGROUND
#define C_WALL RENDER_C_WALL
#define C_OPEN RENDER_C_OPEN
#define C_OPEN_STRONG RENDER_C_OPEN_STRONG
#define C_CLOSED RENDER_C_CLOSED
#define C_PATH_LIGHT RENDER_C_PATH_LIGHT
#define C_PATH RENDER_C_PATH
#define C_START RENDER_C_START
#define C_GOAL RENDER_C_GOAL
#define C_GRID RENDER_C_GRID
#define C_DARK RENDER_C_DARK
#define C_LIGHT RENDER_C_LIGHT

enum { UNSEEN = 0, OPEN = 1, CLOSED = 2 };

typedef struct job {
  /* the query */
  const astar_grid *grid;
  astar_options opt;
  cli_prepared prep; /* the finder, prepared once with the recorder installed */
  astar_point start, goal;
  int32_t w, h;
  float max_terrain;

  /* what the search did, per cell (g, hv, parent only when labels are drawn) */
  uint8_t *state;
  double *g, *hv;
  int32_t *parent; /* cell index, -1 for none */
  size_t nopen, nclosed;
  uint64_t expanded; /* expansions recorded */
  double seconds;    /* the first search, with recording */

  /* the final outcome (first pass) */
  astar_status status;
  astar_result result;
  astar_point *path;
  size_t path_len;

  /* an any-angle line drawn over the cells: --smooth, --algo theta|lazy-theta */
  const cli_algo *algo; /* --algo (astar unless an any-angle search) */
  bool smooth;          /* --smooth: the grid path string-pulled */
  astar_point *line;    /* its points (bends), cell centres */
  size_t line_len;

  /* picture layout */
  int cell;        /* pixels a cell */
  bool fgh;        /* draw F/G/H and parent arrows */
  int text_scale;  /* font magnification for labels; 0: none fit */
  bool integers;   /* costs print as integers */
  bool svg;        /* else PNG */
  const char *out; /* -o */

  /* snapshots: pictures taken when the search has done targets[i] expansions */
  const uint64_t *targets;
  size_t ntargets, next_target;
  uint64_t total; /* expansions of the whole search */
  bool failed;    /* a picture could not be written (message printed) */
  render_raster raster;
  bool have_raster;
} job;

/* ---- recording -------------------------------------------------------------- */

static bool job_alloc_state(job *j) {
  size_t n = (size_t)j->w * (size_t)j->h;
  j->state = calloc(n, 1);
  if (!j->state) return false;
  if (j->fgh) {
    j->g = malloc(n * sizeof *j->g);
    j->hv = malloc(n * sizeof *j->hv);
    j->parent = malloc(n * sizeof *j->parent);
    if (!j->g || !j->hv || !j->parent) return false;
  }
  return true;
}

static void job_reset_state(job *j) {
  memset(j->state, 0, (size_t)j->w * (size_t)j->h);
  j->nopen = j->nclosed = 0;
  j->expanded = 0;
}

static void set_state(job *j, size_t i, uint8_t s) {
  uint8_t old = j->state[i];
  if (old == s) return;
  if (old == OPEN) j->nopen--;
  if (old == CLOSED) j->nclosed--;
  if (s == OPEN) j->nopen++;
  if (s == CLOSED) j->nclosed++;
  j->state[i] = s;
}

static void take_snapshot(job *j, size_t index, bool final);

/* The observer. With turn penalties a cell holds several search states (one
** per arrival direction); the picture shows the cell closed once any of them
** was expanded, and the cheapest g seen. */
static void observe(void *ctx, const astar_event *e) {
  job *j = ctx;
  if (e->type == ASTAR_EVENT_EXPAND || e->type == ASTAR_EVENT_GOAL) {
    /* The state after e->expanded - 1 expansions is complete: take the
    ** pictures that wanted that moment. */
    while (j->next_target < j->ntargets && j->targets[j->next_target] < e->expanded) {
      take_snapshot(j, j->next_target, false);
      j->next_target++;
    }
    j->expanded = e->expanded;
  }
  if (!astar_grid_contains(j->grid, e->cell.x, e->cell.y)) return;
  size_t i = (size_t)e->cell.y * (size_t)j->w + (size_t)e->cell.x;
  uint8_t old = j->state[i];
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
    j->parent[i] = e->parent.x >= 0 ? e->parent.y * j->w + e->parent.x : -1;
  }
}

/* The any-angle line: the grid path string-pulled (drawn over the path),
** or Theta*'s bends (the cells they walk become the path drawn in green). */
static bool any_angle_line(job *j) {
  if (j->status != ASTAR_OK) {
    j->path_len = 0;
    return true;
  }
  size_t n = j->result.length, len = 0;
  free(j->line);
  j->line = malloc(n * sizeof *j->line);
  if (!j->line) return false;
  if (j->smooth) { /* drawn over the grid path, which stays as it is */
    if (astar_path_smooth(j->grid, &j->opt, j->path, n, j->line, n, &len) != ASTAR_OK) return false;
    j->line_len = len;
    j->path_len = n;
    return true;
  } else {
    memcpy(j->line, j->path, n * sizeof *j->line);
    len = n;
  }
  j->line_len = len;
  /* The walk between the bends: never more cells than the map's passable ones. */
  size_t walk = 0;
  if (astar_waypoints_expand(j->line, len, NULL, 0, &walk) == ASTAR_BUFFER_TOO_SMALL) {
    astar_point *p = realloc(j->path, walk * sizeof *p);
    if (!p) return false;
    j->path = p;
  }
  if (astar_waypoints_expand(j->line, len, j->path, walk, &walk) != ASTAR_OK) return false;
  j->path_len = walk;
  return true;
}

/* Run the search with the recorder installed. */
static bool run_search(job *j, astar_workspace *ws, size_t cap) {
  astar_options o = j->opt;
  o.observer = observe;
  o.observer_ctx = j;
  double t0 = cli_now_seconds();
  j->status = cli_prepared_find(&j->prep, ws, &o, j->start, j->goal, j->path, cap, &j->result);
  j->seconds = cli_now_seconds() - t0;
  if (cli_algo_is_any_angle(j->algo) || j->smooth) return any_angle_line(j);
  if (j->status == ASTAR_BUFFER_TOO_SMALL) {
    /* Turn penalties can make a path longer than the cells it may visit once. */
    astar_point *p = realloc(j->path, j->result.length * sizeof *p);
    if (!p) return false;
    j->path = p;
    size_t len;
    if (astar_workspace_path(ws, p, j->result.length, &len) != ASTAR_OK) return false;
    j->status = ASTAR_OK;
  }
  j->path_len = j->status == ASTAR_OK || j->status == ASTAR_PARTIAL ? j->result.length : 0;
  return true;
}

/* ---- layout ------------------------------------------------------------------- */

static void format_value(char *buf, size_t size, double v, bool integers) {
  if (integers && v == floor(v) && fabs(v) < 1e9)
    snprintf(buf, size, "%.0f", v);
  else
    snprintf(buf, size, "%.1f", v);
}

static int label_margin(int cell) {
  return cell / 16 > 3 ? cell / 16 : 3;
}

/* Do labels F (top), G and H (bottom) of the given widths fit a cell at `scale`? */
static bool labels_fit(int cell, int scale, int wf, int wg, int wh) {
  int m = label_margin(cell);
  int row = RENDER_GLYPH_H * scale;
  /* G and H need a full character of space between them to read apart. */
  return wf + 2 * m + 1 <= cell && wg + wh + 2 * m + 1 + RENDER_ADVANCE * scale <= cell &&
         2 * (row + m) <= cell * 6 / 10;
}

/* Widest labels over the visited cells of the final state. */
static void widest_labels(const job *j, int *wf, int *wg, int *wh) {
  *wf = *wg = *wh = 0;
  size_t n = (size_t)j->w * (size_t)j->h;
  char buf[64];
  for (size_t i = 0; i < n; i++) {
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

/* Choose the label scale for the cell size (largest that fits, at most
** cell/32 so that labels stay small beside the arrow), or, when the user
** gave no --cell, the smallest cell size from 72 px that fits scale 2. */
static void choose_layout(job *j, int cell_arg) {
  if (!j->fgh) {
    /* About 1024 px across, 1 to 16 px a cell. */
    int side = j->w > j->h ? j->w : j->h, fit = side > 0 ? 1024 / side : 16;
    j->cell = cell_arg ? cell_arg : fit < 1 ? 1 : fit > 16 ? 16 : fit;
    j->text_scale = 0;
    return;
  }
  int nf, ng, nh;
  widest_labels(j, &nf, &ng, &nh);
  if (nf == 0) nf = ng = nh = 1;
#define W(n, s) ((n)*RENDER_ADVANCE * (s) - (s))
  if (cell_arg) {
    j->cell = cell_arg;
  } else {
    j->cell = 72;
    while (j->cell < 128 && !labels_fit(j->cell, 2, W(nf, 2), W(ng, 2), W(nh, 2))) j->cell += 8;
  }
  j->text_scale = 0;
  for (int s = 1; s <= 8 && s <= (j->cell / 32 > 1 ? j->cell / 32 : 1); s++)
    if (labels_fit(j->cell, s, W(nf, s), W(ng, s), W(nh, s))) j->text_scale = s;
#undef W
}

/* ---- drawing -------------------------------------------------------------------- */

static render_rgb scale_rgb(render_rgb c, double k) {
  unsigned r = (unsigned)((c >> 16 & 0xFF) * k + 0.5), g = (unsigned)((c >> 8 & 0xFF) * k + 0.5),
           b = (unsigned)((c & 0xFF) * k + 0.5);
  return r << 16 | g << 8 | b;
}

static bool is_dark(render_rgb c) {
  double lum = 0.299 * (c >> 16 & 0xFF) + 0.587 * (c >> 8 & 0xFF) + 0.114 * (c & 0xFF);
  return lum < 128;
}

/* Terrain darkens a cell: factor 1 for cost <= 1 down to 0.5 for the map's
** costliest terrain, on a log scale, in steps of 1/32 (few colours). */
static double terrain_shade(const job *j, int32_t x, int32_t y) {
  if (j->max_terrain <= 1.0f) return 1.0;
  float t = astar_grid_terrain(j->grid, x, y);
  if (t <= 1.0f) return 1.0;
  double k = 1.0 - 0.5 * log((double)t) / log((double)j->max_terrain);
  return floor(k * 32 + 0.5) / 32;
}

static bool same_point(astar_point a, int32_t x, int32_t y) {
  return a.x == x && a.y == y;
}

static render_rgb cell_color(const job *j, const uint8_t *on_path, int32_t x, int32_t y) {
  if (!astar_grid_passable(j->grid, x, y)) return C_WALL;
  if (same_point(j->start, x, y)) return C_START;
  if (same_point(j->goal, x, y)) return C_GOAL;
  size_t i = (size_t)y * (size_t)j->w + (size_t)x;
  render_rgb tint = C_BACKGROUND;
  if (on_path && on_path[i] && j->cell >= 6)
    tint = j->fgh ? C_PATH_LIGHT : C_PATH;
  else if (j->state[i] == OPEN)
    tint = j->fgh ? C_OPEN : C_OPEN_STRONG;
  else if (j->state[i] == CLOSED)
    tint = C_CLOSED;
  return scale_rgb(tint, terrain_shade(j, x, y));
}

/* The arrow from a cell's centre towards its parent, inside the cell. */
static void draw_arrow(render_canvas *c, double cx, double cy, double dx, double dy, int cell,
                       int band, render_rgb color) {
  double len = sqrt(dx * dx + dy * dy);
  if (len == 0) return;
  dx /= len, dy /= len;
  /* Stay clear of the label rows: band pixels at the top and the bottom. */
  double reach = cell / 2.0 - band;
  if (fabs(dy) > 0.01) reach = fmin(reach / fabs(dy), cell * 0.32);
  reach = fmin(fmax(reach, cell * 0.15), cell * 0.32);
  double head = cell * 0.12, half = cell * 0.065, width = fmax(1.2, cell * 0.03);
  double tipx = cx + dx * reach, tipy = cy + dy * reach;
  double bx = tipx - dx * head, by = tipy - dy * head;
  render_line(c, cx, cy, bx + dx * 0.5, by + dy * 0.5, width, color);
  double tri[6] = {tipx, tipy, bx - dy * half, by + dx * half, bx + dy * half, by - dx * half};
  c->ops->triangle(c, tri, color);
  c->ops->disc(c, cx, cy, fmax(1.5, cell * 0.045), color);
}

static void draw_labels(const job *j, render_canvas *c, int32_t x, int32_t y, render_rgb fill) {
  size_t i = (size_t)y * (size_t)j->w + (size_t)x;
  int cell = j->cell, s = j->text_scale, m = label_margin(cell);
  int x0 = x * cell, y0 = y * cell;
  render_rgb ink = is_dark(fill) ? C_LIGHT : C_DARK;
  char f[64], g[64], h[64];
  format_value(f, sizeof f, j->g[i] + j->hv[i], j->integers);
  format_value(g, sizeof g, j->g[i], j->integers);
  format_value(h, sizeof h, j->hv[i], j->integers);
  /* An earlier moment can have longer values than the final layout allowed for. */
  while (s > 0 && !labels_fit(cell, s, render_text_width(f, s), render_text_width(g, s),
                              render_text_width(h, s)))
    s--;
  int band = m + RENDER_GLYPH_H * (s ? s : 1) + 2;
  if (s > 0) {
    int bottom = y0 + cell - m - RENDER_GLYPH_H * s;
    c->ops->text(c, x0 + m + 1, y0 + m + 1, RENDER_LEFT, s, f, ink);
    c->ops->text(c, x0 + m + 1, bottom, RENDER_LEFT, s, g, ink);
    c->ops->text(c, x0 + cell - m, bottom, RENDER_RIGHT, s, h, ink);
    const char *mark = same_point(j->start, x, y) ? "S" : same_point(j->goal, x, y) ? "G" : NULL;
    if (mark && render_text_width(f, s) + 2 * m + 1 + (RENDER_ADVANCE + RENDER_GLYPH_W) * s <= cell)
      c->ops->text(c, x0 + cell - m, y0 + m + 1, RENDER_RIGHT, s, mark, ink);
  }
  if (j->parent[i] >= 0) {
    int32_t px = j->parent[i] % j->w, py = j->parent[i] / j->w;
    draw_arrow(c, x0 + cell / 2.0, y0 + cell / 2.0, px - x, py - y, cell, band, ink);
  }
}

static void draw_frame(const job *j, render_canvas *c, bool final) {
  int cell = j->cell;
  int32_t w = j->w, h = j->h;
  uint8_t *on_path = NULL;
  if (final && j->path_len) {
    on_path = calloc((size_t)w * (size_t)h, 1);
    for (size_t k = 0; on_path && k < j->path_len; k++)
      if (astar_grid_contains(j->grid, j->path[k].x, j->path[k].y))
        on_path[(size_t)j->path[k].y * (size_t)w + (size_t)j->path[k].x] = 1;
  }
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      render_rgb col = cell_color(j, on_path, x, y);
      if (col != C_BACKGROUND) c->ops->rect(c, x * cell, y * cell, cell, cell, col);
    }
  }
  if (cell >= 12) {
    for (int32_t x = 0; x <= w; x++)
      c->ops->rect(c, x < w ? x * cell : w * cell - 1, 0, 1, h * cell, C_GRID);
    for (int32_t y = 0; y <= h; y++)
      c->ops->rect(c, 0, y < h ? y * cell : h * cell - 1, w * cell, 1, C_GRID);
  }
  /* Small cells: the path as squares of at least 3 px so that it shows. */
  if (on_path && cell < 6) {
    int side = cell > 3 ? cell : 3, off = (side - cell) / 2;
    for (size_t k = 0; k < j->path_len; k++)
      c->ops->rect(c, j->path[k].x * cell - off, j->path[k].y * cell - off, side, side, C_PATH);
  }
  if (j->fgh) {
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        if (j->state[(size_t)y * (size_t)w + (size_t)x] != UNSEEN)
          draw_labels(j, c, x, y, cell_color(j, on_path, x, y));
  }
  /* The any-angle line from centre to centre, its bends as dots. */
  if (final && j->line_len > 1) {
    const double lw = cell >= 12 ? cell / 8.0 : cell >= 4 ? 2.0 : 1.5;
    for (size_t k = 1; k < j->line_len; k++)
      render_line(c, (j->line[k - 1].x + 0.5) * cell, (j->line[k - 1].y + 0.5) * cell,
                  (j->line[k].x + 0.5) * cell, (j->line[k].y + 0.5) * cell, lw, RENDER_C_LINE);
    const int dot = (int)(lw * 2.5) > 3 ? (int)(lw * 2.5) : 3;
    for (size_t k = 1; k + 1 < j->line_len; k++)
      c->ops->rect(c, (int)((j->line[k].x + 0.5) * cell) - dot / 2,
                   (int)((j->line[k].y + 0.5) * cell) - dot / 2, dot, dot, RENDER_C_LINE);
  }
  /* Start and goal: big enough to find on any map. */
  const astar_point ends[2] = {j->start, j->goal};
  const render_rgb colors[2] = {C_START, C_GOAL};
  for (int k = 0; k < 2; k++) {
    int32_t x = ends[k].x, y = ends[k].y;
    if (cell < 12) {
      int side = cell * 3 > 9 ? cell * 3 : 9, x0 = x * cell + cell / 2 - side / 2,
          y0 = y * cell + cell / 2 - side / 2;
      c->ops->rect(c, x0 - 1, y0 - 1, side + 2, side + 2, C_DARK);
      c->ops->rect(c, x0, y0, side, side, colors[k]);
    } else if (!j->fgh || j->state[(size_t)y * (size_t)j->w + (size_t)x] == UNSEEN) {
      /* A letter, unless the cell's labels (with a small S or G) are drawn. */
      int s = cell / 14 > 1 ? cell / 14 : 1;
      c->ops->text(c, x * cell + cell / 2 + 1, y * cell + (cell - RENDER_GLYPH_H * s) / 2,
                   RENDER_CENTER, s, k ? "G" : "S", C_LIGHT);
    }
  }
  free(on_path);
}

/* ---- output files ------------------------------------------------------------------ */

/* Can files named like `out` be created or replaced? Checks the folder (and
** the file, when it exists) without creating anything; false after a
** message naming the file. */
bool cli_output_writable(const char *out) {
  const char *slash = strrchr(out, '/');
  char dir[4096];
  if (!slash) {
    snprintf(dir, sizeof dir, ".");
  } else {
    const size_t n = slash == out ? 1 : (size_t)(slash - out);
    if (n >= sizeof dir) {
      cli_error("%s: file name too long", out);
      return false;
    }
    memcpy(dir, out, n);
    dir[n] = '\0';
  }
  struct stat sb;
  errno = 0;
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
    cli_error("-o %s: folder %s: %s", out, dir, errno ? strerror(errno) : "not a directory");
    return false;
  }
  if (access(dir, W_OK | X_OK) != 0 || (access(out, F_OK) == 0 && access(out, W_OK) != 0)) {
    cli_error("-o %s: %s", out, strerror(errno));
    return false;
  }
  return true;
}

/* FILE.png -> FILE-007.png for frame 7 of several. */
void cli_frame_name(char *buf, size_t size, const char *out, size_t index, bool many) {
  if (!many) {
    snprintf(buf, size, "%s", out);
    return;
  }
  const char *dot = strrchr(out, '.');
  snprintf(buf, size, "%.*s-%03zu%s", (int)(dot - out), out, index, dot);
}

static bool write_picture(job *j, const char *name, bool final) {
  int width = j->w * j->cell, height = j->h * j->cell;
  cli_out out;
  if (!cli_out_open(&out, name)) return false;
  FILE *f = out.f;
  bool ok = true;
  size_t bytes = 0;
  errno = 0;
  if (j->svg) {
    char attrs[160];
    snprintf(attrs, sizeof attrs, "data-expanded=\"%llu\" data-open=\"%zu\" data-closed=\"%zu\"",
             (unsigned long long)j->expanded, j->nopen, j->nclosed);
    render_svg s;
    render_svg_begin(&s, f, width, height, C_BACKGROUND, attrs);
    draw_frame(j, &s.base, final);
    render_svg_end(&s);
    ok = fflush(f) == 0 && !ferror(f);
    long pos = ftell(f);
    bytes = pos > 0 ? (size_t)pos : 0;
  } else {
    if (!j->have_raster) {
      if (!render_raster_init(&j->raster, width, height, C_BACKGROUND)) {
        cli_out_abort(&out);
        cli_error("%s: cannot allocate a %d x %d picture", name, width, height);
        return false;
      }
      j->have_raster = true;
    } else {
      j->raster.base.ops->rect(&j->raster.base, 0, 0, width, height, C_BACKGROUND);
    }
    draw_frame(j, &j->raster.base, final);
    const char *stored = getenv("ASTAR_PNG_STORED");
    ok = render_png_write(f, width, height, j->raster.rgb, stored && stored[0] == '1', &bytes);
  }
  if (!ok) out.err = errno ? errno : EIO; /* nothing of a failed picture is kept */
  if (!cli_out_close(&out)) return false;
  printf("wrote:    %s (%d x %d px, %zu bytes): after %llu of %llu expansions, %zu open, %zu "
         "closed%s\n",
         name, width, height, bytes, (unsigned long long)j->expanded, (unsigned long long)j->total,
         j->nopen, j->nclosed, final && j->path_len ? ", path shown" : "");
  return true;
}

static void take_snapshot(job *j, size_t index, bool final) {
  if (j->failed) return;
  char name[4096];
  cli_frame_name(name, sizeof name, j->out, index, j->ntargets > 1);
  if (!write_picture(j, name, final)) j->failed = true;
}

/* ---- the command ---------------------------------------------------------------------- */

typedef struct render_settings {
  astar_options opt;
  astar_engine_options eo; /* hex maps */
  cli_render_args r;
  const cli_algo *algo;
  bool smooth;
} render_settings;

enum { SQUARE, HEX };
#define SQ CLI_KIND(SQUARE)

static const cli_opt render_rows[] = {
    {.name = "--output",
     .alias = "-o",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(render_settings, r.out),
     .sample = "x.svg",
     .help = "the picture: .svg or .png (the same limits: at most\n"
             "32768 px a side and 64 Mi pixels in all)"},
    {.name = "--step",
     .meta = "K",
     .kind = CLI_INT,
     CLI_AT(render_settings, r.step),
     .max = UINT64_MAX,
     .help = "the search after K expansions (no path yet)"},
    {.name = "--frames",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(render_settings, r.frames),
     .min = 1,
     .max = MAX_FRAMES,
     .help = "N pictures spread evenly over the search (%r), the last\n"
             "one complete: FILE-000.png ... FILE-<N-1>.png"},
    {.name = "--cell",
     .meta = "PX",
     .kind = CLI_INT,
     CLI_AT(render_settings, r.cell),
     .min = 1,
     .max = 256,
     .help = "pixels per cell, %r (hex maps: between neighbouring\n"
             "centres; default: 72 or more with F/G/H, otherwise up to\n"
             "16, about 1024 px in all)"},
    {.name = "--fgh",
     .kind = CLI_FLAG,
     CLI_AT(render_settings, r.fgh),
     .set = 1,
     .display = "--fgh / --no-fgh",
     .help = "always / never draw F, G, H and parent arrows"},
    {.name = "--no-fgh",
     .kind = CLI_FLAG,
     CLI_AT(render_settings, r.fgh),
     .set = CLI_OFF,
     .flags = CLI_HIDDEN,
     .help = "never draw F, G, H and parent arrows"},
    {.name = "--algo",
     .meta = "NAME",
     .kind = CLI_CUSTOM,
     .off = offsetof(render_settings, algo),
     .parse = cli_drawn_algo_parse,
     .range_fn = cli_drawn_algo_range,
     .sample = "astar",
     .kinds = SQ,
     .help = "the search drawn: %v (default astar); the\n"
             "any-angle ones draw their path as an orange line\n"
             "through the bends"},
    {.name = "--any-angle",
     .meta = "NAME",
     .kind = CLI_CUSTOM,
     .off = offsetof(render_settings, algo),
     .parse = cli_drawn_any_angle_parse,
     .range_fn = cli_drawn_any_angle_range,
     .sample = "theta",
     .kinds = SQ,
     .help = "%v: the same as --algo NAME"},
    {.name = "--smooth",
     .kind = CLI_FLAG,
     CLI_AT(render_settings, smooth),
     .kinds = SQ,
     .help = "also draw A*'s path string-pulled (astar_path_smooth)\n"
             "as an orange line over the green cells"},
    CLI_HELP_ROW,
};
static const cli_group render_group = CLI_ROWS(render_rows);

static const cli_section render_sections[] = {
    {"Options:", &render_group, 0, 0, NULL, false},
    CLI_SEARCH_SECTIONS(render_settings, opt, SQ),
    {"Search options on hex maps (the search engine on the map as a space):", &cli_engine_group,
     offsetof(render_settings, eo), CLI_KIND(HEX),
     "The heuristic is the hex distance times the map's cheapest terrain.\n", false},
};

static void intro(FILE *out) {
  fprintf(out,
          "usage: astar render MAP SX SY GX GY -o FILE.svg|FILE.png [OPTIONS]\n"
          "       astar render MAP -o FILE [OPTIONS]   (ASCII map with S and G cells)\n"
          "       astar render MAP.hex ...             (a hex map: astar render MAP.hex --help)\n"
          "\n"
          "Draw what A* did from (SX,SY) to (GX,GY) on MAP: walls black, terrain darker\n"
          "the costlier, open cells blue, closed cells red, the path green, the start\n"
          "green and the goal red. On maps up to %d x %d cells each visited cell shows F\n"
          "(top left), G (bottom left), H (bottom right) and an arrow to its parent.\n",
          FGH_AUTO_MAX, FGH_AUTO_MAX);
}

static void outro(FILE *out) {
  fputs("Exit status: 0 picture(s) written (whatever the search found); 1 unreadable\n"
        "or malformed map, a blocked start or goal, or an unwritable file; 2 usage error\n"
        "(a start or goal outside the map included). See 'astar --help'.\n",
        out);
}

/* The map decides: a hex map's options are the engine's. */
static int render_kind(const cli_args *a) {
  return a->npos > 0 && cli_is_hex_map(a->pos[0]) ? HEX : SQUARE;
}

static const cli_kind render_kinds[] = {
    {"square", "square maps", "astar render --help"},
    {"hex", "hex maps", "astar render MAP.hex --help"},
};
static const cli_page render_pages[] = {
    {SQ, NULL, intro, outro},
    {CLI_KIND(HEX), "astar render MAP.hex", cli_hex_render_intro, cli_hex_render_outro},
};

const cli_spec cli_render_spec = {.command = "render",
                                  CLI_SECTIONS(render_sections),
                                  CLI_KINDS(render_kinds),
                                  CLI_PAGES(render_pages),
                                  .kind_of = render_kind};

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && strcmp(s + n - k, suffix) == 0;
}

static void job_free(job *j) {
  cli_prepared_free(&j->prep);
  free(j->state);
  free(j->g);
  free(j->hv);
  free(j->parent);
  free(j->path);
  free(j->line);
  if (j->have_raster) render_raster_free(&j->raster);
}

int cli_cmd_render(int argc, char **argv) {
  render_settings set;
  memset(&set, 0, sizeof set);
  astar_options_init(&set.opt);
  astar_engine_options_init(&set.eo);
  set.algo = cli_find_algo("astar");
  set.r.fgh = -1;
  cli_args a;
  const int prc = cli_parse(&a, &cli_render_spec, argc, argv, &set);
  if (prc >= 0) return prc;
  set.r.have_step = cli_given(&a, "--step") > 0;
  if (a.kind == HEX) return cli_hex_render(&a, &set.r, &set.eo);
  job j;
  memset(&j, 0, sizeof j);
  j.opt = set.opt;
  j.algo = set.algo;
  j.smooth = set.smooth;
  j.out = set.r.out;
  const char *const *pos = a.pos;
  const char *pos_names[5] = {"MAP", "SX", "SY", "GX", "GY"};
  const int npos = a.npos, fgh = set.r.fgh;
  const long cell_arg = set.r.cell, frames = set.r.frames;
  const uint64_t step = set.r.step;
  const bool have_step = set.r.have_step;
  if (npos > 5) return cli_usage_error("render: unexpected argument '%s'", pos[5]);
  if (npos != 1 && npos != 5)
    return cli_usage_error(npos == 0 ? "render: missing MAP (see 'astar render --help')"
                                     : "render: expected MAP and four coordinates SX SY GX GY, "
                                       "or MAP alone (see 'astar render --help')");
  if (!j.out) return cli_usage_error("render: missing -o FILE.svg or -o FILE.png");
  j.svg = has_suffix(j.out, ".svg");
  if (!j.svg && !has_suffix(j.out, ".png"))
    return cli_usage_error("-o: expected a file name ending in .svg or .png, got '%s'", j.out);
  if (have_step && frames)
    return cli_usage_error("render: --step and --frames cannot be used together");
  int32_t c[4] = {0, 0, 0, 0};
  for (int i = 1; i < npos; i++)
    if (!cli_parse_cells(pos_names[i], NULL, pos[i], 1, &c[i - 1])) return CLI_EXIT_USAGE;
  if (astar_options_validate(&j.opt) != ASTAR_OK)
    return cli_usage_error("render: the search options are not valid together");
  if (j.smooth && cli_algo_is_any_angle(j.algo))
    return cli_usage_error("render: --smooth straightens A*'s path; --algo %s is any-angle already",
                           j.algo->name);
  /* What render draws are the search's events: the options with its
  ** recorder are those the method must honour. */
  astar_options recorded = j.opt;
  recorded.observer = observe;
  recorded.observer_ctx = &j;
  const char *why = cli_algo_unsupported_options(j.algo, &recorded);
  if (why) return cli_usage_error("render: --algo %s: %s", j.algo->name, why);
  if (cli_algo_is_anya(j.algo))
    return cli_usage_error("render: --algo anya: its path bends on grid corners, not cells: "
                           "render draws cells (astar solve --algo anya prints it)");

  /* An output that cannot be written fails now, not after the search. */
  if (!cli_output_writable(j.out)) return CLI_EXIT_FAIL;

  const char *map = pos[0];
  astar_grid *grid;
  if (!cli_load_map(map, &grid, &j.start, &j.goal)) return CLI_EXIT_FAIL;
  j.grid = grid;
  j.w = astar_grid_width(grid);
  j.h = astar_grid_height(grid);
  int rc = CLI_EXIT_FAIL;
  astar_workspace *ws = NULL;
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
  for (int k = 0; k < 2; k++) {
    astar_point q = k ? j.goal : j.start;
    const char *what = k ? "goal" : "start";
    if (!astar_grid_contains(grid, q.x, q.y)) {
      rc = cli_usage_error("render: the %s (%d,%d) lies outside the %d x %d map %s (x 0..%d, "
                           "y 0..%d)",
                           what, (int)q.x, (int)q.y, (int)j.w, (int)j.h, map, (int)j.w - 1,
                           (int)j.h - 1);
      goto done;
    }
    if (!astar_grid_passable(grid, q.x, q.y)) {
      cli_error("render: the %s cell (%d,%d) is blocked", what, (int)q.x, (int)q.y);
      goto done;
    }
  }
  j.fgh = fgh >= 0 ? fgh == 1 : j.w <= FGH_AUTO_MAX && j.h <= FGH_AUTO_MAX;
  j.integers = j.opt.straight_cost == floor(j.opt.straight_cost) &&
               j.opt.diagonal_cost == floor(j.opt.diagonal_cost) &&
               j.opt.turn_penalty == floor(j.opt.turn_penalty);
  j.max_terrain = 1.0f;
  if (astar_grid_has_terrain(grid)) {
    for (int32_t y = 0; y < j.h; y++)
      for (int32_t x = 0; x < j.w; x++)
        if (astar_grid_passable(grid, x, y) && astar_grid_terrain(grid, x, y) > j.max_terrain)
          j.max_terrain = astar_grid_terrain(grid, x, y);
  }

  if ((why = cli_algo_unsupported(j.algo, &recorded, grid)) != NULL) {
    cli_error("render: %s: --algo %s: %s", map, j.algo->name, why); /* the map's: exit 1 */
    goto done;
  }
  if (!cli_prepare(&j.prep, j.algo, grid, &recorded, map, NULL)) goto done;
  astar_status st = astar_workspace_new(&ws, grid, NULL);
  if (st == ASTAR_OK && j.opt.turn_penalty > 0) st = astar_workspace_reserve_turns(ws, grid);
  size_t cap = astar_grid_count_passable(grid) + 1;
  j.path = malloc(cap * sizeof *j.path);
  if (st != ASTAR_OK || !j.path || !job_alloc_state(&j)) {
    cli_error("render: cannot allocate the search: %s",
              astar_strerror(st != ASTAR_OK ? st : ASTAR_NO_MEMORY));
    goto done;
  }

  /* First pass: the whole search, for the outcome, the path, the number of
  ** expansions (to place frames) and the widest labels (to size cells). */
  if (!run_search(&j, ws, cap)) {
    cli_error("render: cannot allocate the path");
    goto done;
  }
  j.total = j.result.stats.expanded;
  choose_layout(&j, (int)cell_arg);
  if ((long)j.w * j.cell > 32768 || (long)j.h * j.cell > 32768 ||
      (double)j.w * j.cell * (double)j.h * j.cell > (double)MAX_PIXELS) {
    rc = cli_usage_error("render: a %d x %d map at %d px a cell is too big a picture; give a "
                         "smaller --cell%s",
                         (int)j.w, (int)j.h, j.cell, j.fgh ? " or --no-fgh" : "");
    goto done;
  }
  if (j.fgh && j.text_scale == 0)
    cli_error("render: note: %d px cells are too small for F/G/H labels (try --cell 72)", j.cell);

  cli_print_map_line(stdout, strcmp(map, "-") == 0 ? "(stdin)" : map, grid);
  fputs("options:  ", stdout);
  cli_describe_options(stdout, &j.opt);
  printf("\nquery:    (%d,%d) -> (%d,%d)\n", (int)j.start.x, (int)j.start.y, (int)j.goal.x,
         (int)j.goal.y);
  cli_solution sol;
  memset(&sol, 0, sizeof sol);
  sol.status = j.status;
  sol.result = j.result;
  sol.path = j.path;
  sol.len = j.status == ASTAR_OK || j.status == ASTAR_PARTIAL ? j.path_len : 0;
  sol.seconds = j.seconds;
  cli_print_solution(stdout, &sol, false);
  if (j.line_len) {
    /* Its cells weighted by their terrain (astar/anyangle.h, "Cost"). */
    double cost = 0;
    if (astar_polyline_cost(j.grid, &j.opt, j.line, j.line_len, &cost, NULL) != ASTAR_OK)
      cost = j.opt.straight_cost * astar_polyline_length(j.line, j.line_len);
    printf("line:     %zu points (%s), cost %.9g: ", j.line_len,
           j.smooth ? "the path string-pulled" : j.algo->name, cost);
  }
  if (j.line_len) cli_print_path(stdout, j.line, j.line_len, 10, 40);

  uint64_t targets[MAX_FRAMES];
  if (have_step || frames) {
    /* Second pass: the same search, taking pictures on the way. Frame i of
    ** N shows the search after round((i+1) * total / N) expansions. */
    if (have_step) {
      targets[0] = step;
      j.ntargets = 1;
    } else {
      for (long i = 0; i < frames; i++)
        targets[i] = (uint64_t)(((double)(i + 1) * (double)j.total) / (double)frames + 0.5);
      j.ntargets = (size_t)frames;
    }
    j.targets = targets;
    job_reset_state(&j);
    j.next_target = 0;
    astar_result again;
    astar_options o = j.opt;
    o.observer = observe;
    o.observer_ctx = &j;
    (void)cli_prepared_find(&j.prep, ws, &o, j.start, j.goal, NULL, 0, &again);
    /* The moments at or after the end of the search show its final state. */
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
  astar_workspace_free(ws);
  job_free(&j);
  astar_grid_free(grid);
  return rc;
}
