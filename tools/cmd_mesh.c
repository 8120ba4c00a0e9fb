/*
** cmd_mesh.c -- navigation meshes in the tool (issue 30): `astar mesh MAP
** -o OUT.mesh` (a mesh built from a grid map or a polygon map,
** astar/navmesh_build.h), `astar solve --mesh FILE SX SY GX GY` and `astar
** bench --mesh FILE SCEN...` (the mesh finders, astar_finder_new_mesh:
** Polyanya and A* over the polygons with the funnel), and the SVG of a mesh
** with its paths and, on request, the search's nodes. solve and bench run
** the mesh versions when their command line, parsed, gave --mesh; the mesh
** options are tables (cli_mesh_solve_group, cli_mesh_bench_group) they
** include.
**
** Points are mesh coordinates as given (doubles): a scenario's start and
** goal are used as they stand, not moved to cell centres, as Polyanya's own
** scenario runner does (../shared/bench/navmesh/README.md).
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#endif

#include <astar/navmesh_build.h>

#include "cli.h"

#define MAX_REPEAT 101
#define MAX_LISTED 10          /* mismatches listed */
#define NODE_EVENTS_MAX 20000  /* search nodes kept for a picture */
#define SVG_SIDE 1000.0        /* the picture's longer side, in pixels */
#define LENGTH_TOLERANCE 1e-9  /* relative, for exact optima and bounds */
#define GRID_TOLERANCE 1e-5    /* relative, for a Moving AI file's 8 decimals */
#define EXACT_DIGITS 10        /* a scenario's length of this many digits is exact */
#define ROUNDED_TOLERANCE 0.01 /* relative, for one of fewer digits */

/* ---- options shared by solve and bench -------------------------------------- */

static const char *const mesh_algos[] = {"polyanya", "funnel", NULL};
static const astar_method mesh_methods[] = {ASTAR_METHOD_POLYANYA, ASTAR_METHOD_FUNNEL};

void cli_mesh_args_init(cli_mesh_args *a) {
  memset(a, 0, sizeof *a);
}

#define MESH_ROW                                                                                   \
  {                                                                                                \
    .name = "--mesh", .meta = "FILE", .kind = CLI_TEXT, CLI_AT(cli_mesh_args, mesh),               \
    .help = "the navigation mesh, Polyanya's format version 2 (or 1)\n"                            \
            "(`astar mesh` writes one)"                                                            \
  }
#define MESH_ALGO_ROW                                                                              \
  {                                                                                                \
    .name = "--algo", .meta = "NAME", .kind = CLI_CHOICE, CLI_AT(cli_mesh_args, algo),             \
    .names = mesh_algos,                                                                           \
    .help = "polyanya (default: the optimal Euclidean path) or funnel\n"                           \
            "(A* over the polygons, then the funnel: Detour's kind of\n"                           \
            "path, fast, not always optimal)"                                                      \
  }

static const cli_opt mesh_solve_rows[] = {
    MESH_ROW,
    MESH_ALGO_ROW,
    {.name = "--svg",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(cli_mesh_args, svg),
     .sample = "m.svg",
     .help = "draw the mesh and the path as SVG into FILE"},
    {.name = "--nodes",
     .kind = CLI_FLAG,
     CLI_AT(cli_mesh_args, nodes),
     .help = "with --svg: also draw the search nodes the method\n"
             "expanded (Polyanya: root and interval; funnel: the\n"
             "polygons' entry edges)"},
    {.name = "--compare",
     .kind = CLI_FLAG,
     CLI_AT(cli_mesh_args, compare),
     .help = "also run the other method: print its length and the\n"
             "ratio to this one's, and draw its path dashed"},
    {.name = "--json",
     .kind = CLI_FLAG,
     CLI_AT(cli_mesh_args, json),
     .help = "print one JSON object instead of the report"},
};
const cli_group cli_mesh_solve_group = CLI_ROWS(mesh_solve_rows);

static const cli_opt mesh_bench_rows[] = {
    MESH_ROW,
    MESH_ALGO_ROW,
    {.name = "--times",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(cli_mesh_args, times),
     .sample = "t.csv",
     .help = "write one CSV line per query and pass to FILE:\n"
             "pass,index,micros,length,expanded (length -1: no path)"},
};
const cli_group cli_mesh_bench_group = CLI_ROWS(mesh_bench_rows);

/* ---- reading a mesh ------------------------------------------------------------ */

/* Print a mesh's fault as "PATH:LINE:COL: message" (what the reader found
** in the text) or "PATH: message". */
static void report_fault(const char *path, astar_status st, const astar_mesh_fault *f) {
  const char *msg = f->message[0] ? f->message : astar_strerror(st);
  if (f->line > 0 && f->column > 0)
    cli_error("%s:%u:%u: %s", path, (unsigned)f->line, (unsigned)f->column, msg);
  else if (f->line > 0)
    cli_error("%s:%u: %s", path, (unsigned)f->line, msg);
  else
    cli_error("%s: %s", path, msg);
}

/* The first word of a text ("mesh", "poly", "type", ...) into buf. */
static void first_word(const char *text, size_t len, char *buf, size_t size) {
  size_t i = 0, n = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) i++;
  while (i < len && n + 1 < size && text[i] > ' ') buf[n++] = text[i++];
  buf[n] = '\0';
}

static bool parse_mesh(const char *path, const char *text, size_t len, astar_mesh **out) {
  astar_mesh_fault fault;
  memset(&fault, 0, sizeof fault);
  const astar_status st = astar_mesh_read(out, text, len, NULL, &fault);
  if (st != ASTAR_OK) report_fault(path, st, &fault);
  return st == ASTAR_OK;
}

/* Read and check the mesh at `path`. False after a message naming the file
** (and line and column). */
static bool load_mesh(const char *path, astar_mesh **out) {
  *out = NULL;
  char *text;
  size_t len;
  if (!cli_read_file(path, &text, &len)) return false;
  const bool ok = parse_mesh(path, text, len, out);
  free(text);
  return ok;
}

static void describe_mesh(FILE *out, const char *path, const astar_mesh *m) {
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  fprintf(out, "mesh:     %s (%zu polygons, %zu vertices, %g x %g, area %.10g)\n", path,
          astar_mesh_polygon_count(m), astar_mesh_vertex_count(m), hi.x - lo.x, hi.y - lo.y,
          astar_mesh_area(m));
}

/* ---- a search on the mesh ----------------------------------------------------------- */

typedef struct node_event {
  astar_vec2 root, left, right;
} node_event;

typedef struct mesh_search {
  astar_finder *f;
  astar_workspace *ws;
  astar_vec2 *path;
  size_t cap;
  /* --nodes: the expanded nodes, kept for the picture */
  node_event *nodes;
  size_t nnodes, nodes_cap;
  uint64_t nodes_seen;
} mesh_search;

static void on_node(void *ctx, const astar_mesh_event *e) {
  mesh_search *s = ctx;
  if (e->type != ASTAR_EVENT_EXPAND && e->type != ASTAR_EVENT_GOAL) return;
  s->nodes_seen++;
  if (s->nnodes == s->nodes_cap) return;
  s->nodes[s->nnodes++] = (node_event){e->root, e->left, e->right};
}

static void search_free(mesh_search *s) {
  astar_finder_free(s->f);
  astar_workspace_free(s->ws);
  free(s->path);
  free(s->nodes);
  memset(s, 0, sizeof *s);
}

/* A finder of `method` on m (with an observer keeping the nodes when
** `nodes`). False after a message. */
static bool search_new(mesh_search *s, const astar_mesh *m, astar_method method, bool nodes) {
  memset(s, 0, sizeof *s);
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = method;
  if (nodes) {
    s->nodes_cap = NODE_EVENTS_MAX;
    s->nodes = malloc(s->nodes_cap * sizeof *s->nodes);
  }
  s->cap = 256;
  s->path = malloc(s->cap * sizeof *s->path);
  astar_status st = (!s->path || (nodes && !s->nodes)) ? ASTAR_NO_MEMORY : ASTAR_OK;
  if (st == ASTAR_OK) st = astar_finder_new_mesh(&s->f, m, &cfg, NULL);
  if (st == ASTAR_OK && nodes) st = astar_finder_set_mesh_observer(s->f, on_node, s);
  if (st == ASTAR_OK) st = astar_workspace_new_empty(&s->ws, NULL);
  if (st != ASTAR_OK) {
    const char *why =
        st == ASTAR_UNSUPPORTED ? astar_finder_mesh_unsupported_reason(m, &cfg) : NULL;
    cli_error("cannot prepare the mesh search: %s", why ? why : astar_strerror(st));
    search_free(s);
    return false;
  }
  return true;
}

/* One search; the path in s->path[0 .. res->length-1] when ASTAR_OK. A
** path longer than the buffer grows it and searches again (untimed
** callers only: bench reserves a large buffer first). */
static astar_status search_run(mesh_search *s, astar_vec2 a, astar_vec2 b, astar_path_result *res) {
  s->nnodes = 0;
  s->nodes_seen = 0;
  astar_status st = astar_finder_find_points(s->f, s->ws, a, b, s->path, s->cap, res);
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    astar_vec2 *p = realloc(s->path, res->length * sizeof *p);
    if (!p) return ASTAR_NO_MEMORY;
    s->path = p;
    s->cap = res->length;
    s->nnodes = 0;
    s->nodes_seen = 0;
    st = astar_finder_find_points(s->f, s->ws, a, b, s->path, s->cap, res);
  }
  return st;
}

/* Euclidean length of a polyline. */
static double polyline_length(const astar_vec2 *p, size_t n) {
  double sum = 0;
  for (size_t i = 1; i < n; i++) sum += hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
  return sum;
}

/* ---- does a path lie in the mesh? -----------------------------------------------------
** A segment lies in the union of the closed polygons when the parameter
** intervals where it crosses them cover [0, 1]. It is walked from its start:
** the polygons that may hold the current point (the one located there, the
** polygons around a vertex it is on, and the neighbours of the polygon it
** left: rounding may put a point on an edge a hair outside both sides) are
** clipped against the segment, and the walk goes on from the furthest exit
** of those whose interval holds the point. A tolerance of 1e-9 of the
** mesh's size absorbs the rounding of the path's own coordinates. */

typedef struct mesh_walk {
  const astar_mesh *m;
  uint32_t *first; /* vertex v's polygons: around[first[v] .. first[v+1]-1] */
  int32_t *around;
  double eps; /* tolerance, in coordinate units */
} mesh_walk;

static void walk_free(mesh_walk *w) {
  free(w->first);
  free(w->around);
}

static bool walk_new(mesh_walk *w, const astar_mesh *m) {
  memset(w, 0, sizeof *w);
  w->m = m;
  const size_t nv = astar_mesh_vertex_count(m), np = astar_mesh_polygon_count(m);
  w->first = calloc(nv + 1, sizeof *w->first);
  size_t total = 0;
  for (size_t i = 0; i < np; i++) total += astar_mesh_polygon(m, i, NULL, NULL);
  w->around = malloc((total ? total : 1) * sizeof *w->around);
  if (!w->first || !w->around) {
    walk_free(w);
    return false;
  }
  for (size_t i = 0; i < np; i++) {
    const int32_t *v;
    const uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
    for (uint32_t k = 0; k < n; k++) w->first[v[k] + 1]++;
  }
  for (size_t v = 0; v < nv; v++) w->first[v + 1] += w->first[v];
  uint32_t *fill = malloc((nv + 1) * sizeof *fill);
  if (!fill) {
    walk_free(w);
    return false;
  }
  memcpy(fill, w->first, (nv + 1) * sizeof *fill);
  for (size_t i = 0; i < np; i++) {
    const int32_t *v;
    const uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
    for (uint32_t k = 0; k < n; k++) w->around[fill[v[k]]++] = (int32_t)i;
  }
  free(fill);
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  const double size = fmax(fmax(hi.x - lo.x, hi.y - lo.y), 1.0);
  w->eps = 1e-9 * size;
  return true;
}

/* The parameters [lo, hi] of a + t (b - a) inside polygon i (within eps);
** false when the segment misses it. */
static bool clip(const mesh_walk *w, int32_t i, astar_vec2 a, astar_vec2 b, double *lo,
                 double *hi) {
  const int32_t *v;
  const uint32_t n = astar_mesh_polygon(w->m, (size_t)i, &v, NULL);
  if (n < 3) return false;
  double t0 = 0, t1 = 1;
  const double dx = b.x - a.x, dy = b.y - a.y;
  for (uint32_t k = 0; k < n; k++) {
    const astar_vec2 p = astar_mesh_vertex(w->m, (size_t)v[k]);
    const astar_vec2 q = astar_mesh_vertex(w->m, (size_t)v[(k + 1) % n]);
    const double ex = q.x - p.x, ey = q.y - p.y, elen = hypot(ex, ey);
    if (elen == 0) continue;
    /* Distance of a + t d to the left of the edge: c0 + t c1 >= -eps. */
    const double c0 = (ex * (a.y - p.y) - ey * (a.x - p.x)) / elen + w->eps;
    const double c1 = (ex * dy - ey * dx) / elen;
    if (c1 == 0) {
      if (c0 < 0) return false;
    } else if (c1 > 0) {
      t0 = fmax(t0, -c0 / c1);
    } else {
      t1 = fmin(t1, -c0 / c1);
    }
    if (t0 > t1) return false;
  }
  *lo = t0;
  *hi = t1;
  return true;
}

/* Try polygon i as a continuation at parameter t: raises *best to its exit. */
static void try_polygon(const mesh_walk *w, int32_t i, astar_vec2 a, astar_vec2 b, double t,
                        double tol, double *best, int32_t *best_poly) {
  double lo, hi;
  if (i < 0 || !clip(w, i, a, b, &lo, &hi)) return;
  if (lo <= t + tol && hi > *best) {
    *best = hi;
    *best_poly = i;
  }
}

/* True when the segment a-b lies in the mesh. */
static bool segment_in_mesh(const mesh_walk *w, astar_vec2 a, astar_vec2 b) {
  const double len = hypot(b.x - a.x, b.y - a.y);
  const double tol = len > 0 ? w->eps / len : 1;
  double t = 0;
  int32_t prev = -1;
  for (size_t steps = 0; steps <= 4 * astar_mesh_polygon_count(w->m) + 4; steps++) {
    const astar_vec2 p = {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
    astar_mesh_location loc;
    astar_mesh_locate(w->m, p, &loc);
    double best = -1;
    int32_t best_poly = -1;
    try_polygon(w, loc.polygon, a, b, t, tol, &best, &best_poly);
    try_polygon(w, loc.other, a, b, t, tol, &best, &best_poly);
    if (loc.vertex >= 0)
      for (uint32_t k = w->first[loc.vertex]; k < w->first[loc.vertex + 1]; k++)
        try_polygon(w, w->around[k], a, b, t, tol, &best, &best_poly);
    if (prev >= 0) {
      const int32_t *v, *nb;
      const uint32_t n = astar_mesh_polygon(w->m, (size_t)prev, &v, &nb);
      for (uint32_t k = 0; k < n; k++) {
        try_polygon(w, nb[k], a, b, t, tol, &best, &best_poly);
        /* The fans of the polygon's vertices near the point. */
        const astar_vec2 q = astar_mesh_vertex(w->m, (size_t)v[k]);
        if (hypot(q.x - p.x, q.y - p.y) <= 2 * w->eps)
          for (uint32_t j = w->first[v[k]]; j < w->first[v[k] + 1]; j++)
            try_polygon(w, w->around[j], a, b, t, tol, &best, &best_poly);
      }
    }
    if (best >= 1 - tol) return true;
    if (best <= t + tol * 0.5) return false; /* no polygon takes the segment further */
    t = best;
    prev = best_poly;
  }
  return false;
}

static bool path_in_mesh(const mesh_walk *w, const astar_vec2 *p, size_t n) {
  if (n == 1) return astar_mesh_locate(w->m, p[0], NULL) >= 0;
  for (size_t i = 1; i < n; i++)
    if (!segment_in_mesh(w, p[i - 1], p[i])) return false;
  return true;
}

/* ---- the picture ------------------------------------------------------------------- */

typedef struct svg_frame {
  double x0, y0, scale, pad;
  int width, height;
} svg_frame;

static svg_frame frame_of(const astar_mesh *m) {
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  const double w = fmax(hi.x - lo.x, 1e-9), h = fmax(hi.y - lo.y, 1e-9);
  svg_frame f;
  f.scale = SVG_SIDE / fmax(w, h);
  f.pad = 10;
  f.x0 = lo.x;
  f.y0 = lo.y;
  f.width = (int)ceil(w * f.scale + 2 * f.pad);
  f.height = (int)ceil(h * f.scale + 2 * f.pad);
  return f;
}

static void svg_point(FILE *out, const svg_frame *f, astar_vec2 p) {
  fprintf(out, "%.2f,%.2f", (p.x - f->x0) * f->scale + f->pad, (p.y - f->y0) * f->scale + f->pad);
}

typedef struct svg_path {
  const astar_vec2 *p;
  size_t n;
  const char *color;
  bool dashed;
} svg_path;

/* The mesh (obstacles and the outside grey, polygons white with their
** edges), the nodes (translucent), the paths, start and goal. */
static bool write_svg(const char *file, const astar_mesh *m, const node_event *nodes, size_t nnodes,
                      const svg_path *paths, size_t npaths, const astar_vec2 *ends) {
  cli_out o;
  if (!cli_out_open(&o, file)) return false;
  FILE *out = o.f;
  const svg_frame f = frame_of(m);
  const double stroke = fmin(1.0, fmax(0.3, f.scale * 0.03));
  fprintf(out,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#6b6b6b\"/>\n"
          "<path fill=\"#ffffff\" stroke=\"#7f93a8\" stroke-width=\"%.2f\" "
          "stroke-linejoin=\"round\" d=\"",
          f.width, f.height, f.width, f.height, stroke);
  const size_t np = astar_mesh_polygon_count(m);
  for (size_t i = 0; i < np; i++) {
    const int32_t *v;
    const uint32_t n = astar_mesh_polygon(m, i, &v, NULL);
    for (uint32_t k = 0; k < n; k++) {
      fputc(k ? 'L' : 'M', out);
      svg_point(out, &f, astar_mesh_vertex(m, (size_t)v[k]));
    }
    if (n) fputs("Z\n", out);
  }
  fputs("\"/>\n", out);
  if (nnodes) {
    fputs("<path fill=\"#f5a623\" fill-opacity=\"0.12\" stroke=\"#e08e0b\" stroke-opacity=\"0.5\" "
          "stroke-width=\"0.5\" d=\"",
          out);
    for (size_t i = 0; i < nnodes; i++) {
      fputc('M', out);
      svg_point(out, &f, nodes[i].root);
      fputc('L', out);
      svg_point(out, &f, nodes[i].left);
      fputc('L', out);
      svg_point(out, &f, nodes[i].right);
      fputs("Z\n", out);
    }
    fputs("\"/>\n", out);
  }
  const double width = fmax(1.5, fmin(4.0, f.scale * 0.15));
  for (size_t k = 0; k < npaths; k++) {
    if (paths[k].n < 2) continue;
    fprintf(out,
            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\" "
            "stroke-linejoin=\"round\"%s points=\"",
            paths[k].color, width, paths[k].dashed ? " stroke-dasharray=\"6,4\"" : "");
    for (size_t i = 0; i < paths[k].n; i++) {
      if (i) fputc(' ', out);
      svg_point(out, &f, paths[k].p[i]);
    }
    fputs("\"/>\n", out);
  }
  if (ends) {
    static const char *const colors[] = {"#2a9d3a", "#1f4fd8"};
    for (int i = 0; i < 2; i++)
      fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\"/>\n",
              (ends[i].x - f.x0) * f.scale + f.pad, (ends[i].y - f.y0) * f.scale + f.pad, width * 2,
              colors[i]);
  }
  fputs("</svg>\n", out);
  return cli_out_close(&o);
}

/* ---- numbers on the command line and in scenarios ------------------------------------ */

/* A finite number; false (quiet) otherwise. */
static bool scan_number(const char *text, size_t len, double *out) {
  char buf[64];
  if (len == 0 || len >= sizeof buf) return false;
  memcpy(buf, text, len);
  buf[len] = '\0';
  char *end;
  errno = 0;
  const double v = strtod(buf, &end);
  if (*end != '\0' || !isfinite(v) || errno == ERANGE) return false;
  /* strtod takes hexadecimal and "inf"/"nan" spellings: numbers here are decimal. */
  for (const char *c = buf; *c; c++)
    if (!strchr("0123456789+-.eE", *c)) return false;
  *out = v;
  return true;
}

static bool parse_coordinate(const char *what, const char *text, double *out) {
  if (!scan_number(text, strlen(text), out) || fabs(*out) > 1e15) {
    cli_error("%s: expected a finite number from -1e15 to 1e15, got '%s'", what, text);
    return false;
  }
  return true;
}

/* Significant digits of a decimal number as written: "7.414" 4, "0.70710678" 8. */
static int significant_digits(const char *s, size_t n) {
  int d = 0;
  bool lead = true;
  for (size_t i = 0; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
    if (s[i] < '0' || s[i] > '9') continue;
    if (lead && s[i] == '0') continue;
    lead = false;
    d++;
  }
  return d;
}

/* A mesh scenario's query: Moving AI's .scen line with any numbers. */
typedef struct mesh_query {
  astar_vec2 start, goal;
  double expected; /* the file's last column */
  int digits;      /* its significant digits as written (its precision) */
  bool euclidean;  /* the expected length is the Euclidean optimum (the map field names a
                      .mesh); else it is an 8-connected grid optimum, an upper bound */
  uint32_t line;
} mesh_query;

/* Read a scenario: "version V", then lines of 9 fields separated by blanks:
** bucket, map, width, height, sx, sy, gx, gy, expected length. False after
** "PATH:LINE:COL: message". */
static bool load_queries(const char *path, mesh_query **out, size_t *count) {
  *out = NULL;
  *count = 0;
  char *text;
  size_t len;
  if (!cli_read_file(path, &text, &len)) return false;
  size_t cap = 0, n = 0;
  mesh_query *q = NULL;
  bool ok = true, header = false;
  uint32_t line = 0;
  for (size_t at = 0; at < len && ok;) {
    size_t end = at;
    while (end < len && text[end] != '\n') end++;
    line++;
    size_t f[10][2], nf = 0;
    for (size_t i = at; i < end && nf < 10;) {
      while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) i++;
      if (i == end) break;
      const size_t s = i;
      while (i < end && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') i++;
      f[nf][0] = s;
      f[nf++][1] = i - s;
    }
    const size_t line_start = at;
    at = end + 1;
    if (nf == 0) continue;
#define COL(k) (unsigned)(f[k][0] - line_start + 1)
    if (!header) {
      if (f[0][1] != 7 || memcmp(text + f[0][0], "version", 7) != 0 || nf != 2) {
        cli_error("%s:%u:%u: expected the header 'version 1'", path, line, COL(0));
        ok = false;
      }
      header = true;
      continue;
    }
    if (nf != 9) {
      cli_error("%s:%u:%u: expected 9 fields (bucket, map, width, height, start x, start y, goal "
                "x, goal y, length), got %s",
                path, line, nf > 9 ? COL(9) : COL(nf - 1), nf > 9 ? "more" : "fewer");
      ok = false;
      break;
    }
    static const char *const names[] = {"",        "",       "width",  "height", "start x",
                                        "start y", "goal x", "goal y", "length"};
    double v[9] = {0};
    for (int k = 2; k < 9 && ok; k++) {
      if (!scan_number(text + f[k][0], f[k][1], &v[k])) {
        cli_error("%s:%u:%u: %s: expected a finite number, got '%.*s'", path, line, COL(k),
                  names[k], (int)(f[k][1] > 40 ? 40 : f[k][1]), text + f[k][0]);
        ok = false;
      }
    }
    if (!ok) break;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      mesh_query *g = realloc(q, cap * sizeof *g);
      if (!g) {
        cli_error("%s: out of memory", path);
        ok = false;
        break;
      }
      q = g;
    }
    mesh_query *e = &q[n++];
    e->start = (astar_vec2){v[4], v[5]};
    e->goal = (astar_vec2){v[6], v[7]};
    e->expected = v[8];
    e->line = line;
    e->digits = significant_digits(text + f[8][0], f[8][1]);
    e->euclidean = f[1][1] >= 5 && memcmp(text + f[1][0] + f[1][1] - 5, ".mesh", 5) == 0;
#undef COL
  }
  if (ok && !header) {
    cli_error("%s:1:1: expected the header 'version 1'", path);
    ok = false;
  }
  free(text);
  if (!ok) {
    free(q);
    return false;
  }
  *out = q;
  *count = n;
  return true;
}

/* ---- solve --mesh ----------------------------------------------------------------- */

void cli_mesh_solve_intro(FILE *out) {
  fputs("usage: astar solve --mesh FILE SX SY GX GY [--algo polyanya|funnel] [--svg F]\n"
        "                   [--json] [OPTIONS]\n"
        "\n"
        "Find the path between two points of a navigation mesh (astar/mesh.h; `astar\n"
        "mesh` builds one from a grid or polygon map): polyanya gives the shortest\n"
        "Euclidean path, funnel A* over the polygons string-pulled. The points are\n"
        "mesh coordinates, any finite numbers (a mesh built from a grid: cell units,\n"
        "cell (x, y) the square [x, x+1] x [y, y+1]). Prints the outcome, the\n"
        "length, the search figures and the path's points.\n",
        out);
}

void cli_mesh_solve_outro(FILE *out) {
  fputs("Exit status: 0 path found; 1 no path (a point outside the mesh included), or\n"
        "an unreadable or malformed mesh (named with its line and column); 2 usage\n"
        "error. See 'astar --help'.\n",
        out);
}

static const char *outcome(astar_status st) {
  switch (st) {
  case ASTAR_OK:
    return "path found";
  case ASTAR_NO_PATH:
    return "no path: the points are in parts of the mesh not connected";
  case ASTAR_START_BLOCKED:
    return "no path: the start is outside the mesh";
  case ASTAR_GOAL_BLOCKED:
    return "no path: the goal is outside the mesh";
  case ASTAR_LIMIT_REACHED:
    return "gave up: the expansion limit was reached";
  default:
    return astar_strerror(st);
  }
}

static void json_point(FILE *out, astar_vec2 p) {
  fputc('[', out);
  cli_json_number(out, p.x, 10);
  fputc(',', out);
  cli_json_number(out, p.y, 10);
  fputc(']', out);
}

static void print_points(FILE *out, const astar_vec2 *p, size_t n) {
  fputs("path:     ", out);
  int col = 10;
  for (size_t i = 0; i < n; i++) {
    char buf[80];
    const int w = snprintf(buf, sizeof buf, "(%.10g,%.10g)", p[i].x, p[i].y);
    if (i > 0 && col + 1 + w > 100) {
      fputs("\n          ", out);
      col = 10;
    } else if (i > 0) {
      fputc(' ', out);
      col++;
    }
    fputs(buf, out);
    col += w;
  }
  fputc('\n', out);
}

int cli_mesh_solve(const cli_mesh_args *args, const cli_args *parsed) {
  const cli_mesh_args a = *args;
  const char *const *pos = parsed->pos;
  if (!a.mesh) return cli_usage_error("solve: --mesh needs a file");
  if (parsed->npos > 4) return cli_usage_error("solve: unexpected argument '%s'", pos[4]);
  if (parsed->npos != 4)
    return cli_usage_error("solve: expected the points SX SY GX GY after --mesh FILE");
  if (a.nodes && !a.svg) return cli_usage_error("solve: --nodes draws into --svg FILE: give one");
  double c[4];
  static const char *const what[] = {"SX", "SY", "GX", "GY"};
  for (int i = 0; i < 4; i++)
    if (!parse_coordinate(what[i], pos[i], &c[i])) return CLI_EXIT_USAGE;
  const astar_vec2 ends[2] = {{c[0], c[1]}, {c[2], c[3]}};
  astar_mesh *m;
  if (!load_mesh(a.mesh, &m)) return CLI_EXIT_FAIL;
  mesh_search s, other;
  memset(&other, 0, sizeof other);
  if (!search_new(&s, m, mesh_methods[a.algo], a.nodes) ||
      (a.compare && !search_new(&other, m, mesh_methods[!a.algo], false))) {
    search_free(&s);
    astar_mesh_free(m);
    return CLI_EXIT_FAIL;
  }
  astar_path_result res, ores;
  memset(&ores, 0, sizeof ores);
  const double t0 = cli_now_seconds();
  const astar_status st = search_run(&s, ends[0], ends[1], &res);
  const double seconds = cli_now_seconds() - t0;
  astar_status ost = ASTAR_NO_PATH;
  if (a.compare) ost = search_run(&other, ends[0], ends[1], &ores);
  const char *name = mesh_algos[a.algo], *oname = mesh_algos[!a.algo];
  int rc = st == ASTAR_OK ? CLI_EXIT_OK : CLI_EXIT_FAIL;
  if (st == ASTAR_NO_MEMORY || st == ASTAR_INVALID_ARGUMENT) cli_error("solve: %s", outcome(st));
  if (a.json) {
    fputs("{\"mesh\":", stdout);
    cli_json_string(stdout, a.mesh);
    printf(",\"algo\":\"%s\",\"start\":", name);
    json_point(stdout, ends[0]);
    fputs(",\"goal\":", stdout);
    json_point(stdout, ends[1]);
    fputs(",\"status\":", stdout);
    cli_json_string(stdout, astar_strerror(st));
    printf(",\"found\":%s,\"length\":", st == ASTAR_OK ? "true" : "false");
    cli_json_number(stdout, st == ASTAR_OK ? res.cost : 0, 12);
    fputs(",\"points\":[", stdout);
    for (size_t i = 0; st == ASTAR_OK && i < res.length; i++) {
      if (i) fputc(',', stdout);
      json_point(stdout, s.path[i]);
    }
    printf("],\"expanded\":%llu,\"generated\":%llu,\"corridor\":%u,\"ms\":",
           (unsigned long long)res.stats.expanded, (unsigned long long)res.stats.generated,
           (unsigned)res.abstract_length);
    cli_json_number(stdout, seconds * 1e3, 4);
    if (a.compare) {
      printf(",\"other\":{\"algo\":\"%s\",\"found\":%s,\"length\":", oname,
             ost == ASTAR_OK ? "true" : "false");
      cli_json_number(stdout, ost == ASTAR_OK ? ores.cost : 0, 12);
      fputs("}", stdout);
    }
    fputs("}\n", stdout);
  } else {
    describe_mesh(stdout, a.mesh, m);
    printf("query:    (%.10g,%.10g) -> (%.10g,%.10g) with %s\n", ends[0].x, ends[0].y, ends[1].x,
           ends[1].y, name);
    printf("status:   %s\n", outcome(st));
    if (st == ASTAR_OK) {
      char cost[64];
      cli_format_cost(cost, sizeof cost, res.cost);
      printf("length:   %s (%zu points)\n", cost, res.length);
    }
    printf("work:     expanded %llu, generated %llu", (unsigned long long)res.stats.expanded,
           (unsigned long long)res.stats.generated);
    if (res.abstract_length) printf(", corridor %u polygons", (unsigned)res.abstract_length);
    printf(" in %.3f ms\n", seconds * 1e3);
    if (a.compare) {
      if (ost == ASTAR_OK && st == ASTAR_OK && res.cost > 0)
        printf("%-9s %.10g (%.6f x this one)\n", oname, ores.cost, ores.cost / res.cost);
      else
        printf("%-9s %s\n", oname, outcome(ost));
    }
    if (st == ASTAR_OK) print_points(stdout, s.path, res.length);
  }
  if (a.svg) {
    svg_path paths[2];
    size_t np = 0;
    static const char *const colors[] = {"#d62828", "#1d6fd8"};
    if (a.compare && ost == ASTAR_OK)
      paths[np++] = (svg_path){other.path, ores.length, colors[!a.algo], true};
    if (st == ASTAR_OK) paths[np++] = (svg_path){s.path, res.length, colors[a.algo], false};
    if (!write_svg(a.svg, m, s.nodes, s.nnodes, paths, np, ends)) rc = CLI_EXIT_FAIL;
  }
  search_free(&s);
  search_free(&other);
  astar_mesh_free(m);
  return rc;
}

/* ---- bench --mesh -------------------------------------------------------------------- */

void cli_mesh_bench_intro(FILE *out) {
  fputs("usage: astar bench --mesh FILE SCEN... [--algo polyanya|funnel] [--check]\n"
        "                   [OPTIONS]\n"
        "\n"
        "Time a mesh method on every query of Moving AI scenario files used as points\n"
        "of the mesh (start and goal as given, not moved to cell centres: Polyanya's\n"
        "convention). Prints queries, solved, seconds of search (with --repeat, of the\n"
        "median pass), microseconds per query (mean and median), mean expansions and\n"
        "the mean length. --check checks every query, untimed: every path must join\n"
        "the query's points and lie in the mesh (each segment walked through the\n"
        "polygons), its length be the sum of its segments and at least the straight\n"
        "line. When the scenario's map field names a .mesh, its last column is the\n"
        "Euclidean optimum: polyanya must match it (within 1e-9 relative when it is\n"
        "written with 10 digits or more, else within 1%: the authors' rounded\n"
        "figures), funnel not be below it; a negative value (the authors' Polyanya\n"
        "found no path: a point where obstacles touch) takes either outcome.\n"
        "Otherwise the column is the grid's 8-connected optimum, which polyanya's\n"
        "length must not exceed (relative 1e-5). Mismatches are\n"
        "listed as SCEN:LINE.\n",
        out);
}

void cli_mesh_bench_outro(FILE *out) {
  fputs("Exit status: 0 done; 1 an unreadable or malformed file or (--check) a\n"
        "mismatch; 2 usage error. See 'astar --help'.\n",
        out);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Why a query's answer is wrong, or NULL. */
static const char *check_query(const mesh_query *q, bool optimal, astar_status st, double len,
                               const mesh_walk *w, const astar_vec2 *path, size_t n) {
  const double straight = hypot(q->goal.x - q->start.x, q->goal.y - q->start.y);
  /* A negative figure is the authors' Polyanya finding no path: their
  ** convention for a point on a vertex where obstacles touch (bad-ambig).
  ** The library defines such a point (astar_mesh_locate), so either
  ** outcome passes; a path given must still lie in the mesh. */
  const bool any = q->euclidean && q->expected < 0;
  if (st != ASTAR_OK) return any ? NULL : "no path";
  if (!path_in_mesh(w, path, n)) return "the path leaves the mesh";
  if (fabs(polyline_length(path, n) - len) > LENGTH_TOLERANCE * fmax(1, len) + 1e-9)
    return "the reported length is not the path's";
  if (path[0].x != q->start.x || path[0].y != q->start.y || path[n - 1].x != q->goal.x ||
      path[n - 1].y != q->goal.y)
    return "the path does not join the query's points";
  if (len < straight * (1 - LENGTH_TOLERANCE) - 1e-12) return "shorter than the straight line";
  if (any) {
    return NULL;
  } else if (q->euclidean) {
    /* A figure of EXACT_DIGITS digits or more is the optimum; a shorter one
    ** is the authors' rounded figure (bad-ambig's 4 for 3.980..., bad-
    ** collinear's 7.414 for 7.4122...), within ROUNDED_TOLERANCE. */
    const double tol =
        (q->digits >= EXACT_DIGITS ? LENGTH_TOLERANCE : ROUNDED_TOLERANCE) * fmax(1, q->expected);
    if (optimal ? fabs(len - q->expected) > tol : len < q->expected - tol)
      return optimal ? "not the file's length" : "shorter than the file's optimum";
  } else if (optimal && q->expected > 0 && len > q->expected * (1 + GRID_TOLERANCE)) {
    return "longer than the grid's optimum";
  }
  return NULL;
}

int cli_mesh_bench(const cli_mesh_args *args, const cli_mesh_bench_args *b,
                   const cli_args *parsed) {
  const cli_mesh_args a = *args;
  if (!a.mesh) return cli_usage_error("bench: --mesh needs a file");
  if (parsed->npos == 0) return cli_usage_error("bench: expected SCEN... after --mesh FILE");
  const char **scens = malloc((size_t)parsed->argc * sizeof *scens);
  if (!scens) return CLI_EXIT_FAIL;
  const size_t nscens = cli_positionals(parsed, scens, (size_t)parsed->argc);
  astar_mesh *m = NULL;
  mesh_query *q = NULL;
  size_t nq = 0;
  int rc = CLI_EXIT_OK;
  if (!load_mesh(a.mesh, &m)) rc = CLI_EXIT_FAIL;
  /* Every scenario's queries, in order; a query's file by its index. */
  size_t *file_end = calloc(nscens, sizeof *file_end);
  for (size_t i = 0; rc == CLI_EXIT_OK && i < nscens; i++) {
    mesh_query *fq;
    size_t fn;
    if (!file_end || !load_queries(scens[i], &fq, &fn)) {
      rc = CLI_EXIT_FAIL;
      break;
    }
    /* --every, --limit per file */
    size_t kept = 0;
    for (size_t k = 0; k < fn && (b->limit <= 0 || kept < (size_t)b->limit); k += (size_t)b->every)
      fq[kept++] = fq[k];
    mesh_query *g = realloc(q, (nq + kept + 1) * sizeof *g);
    if (!g) {
      free(fq);
      rc = CLI_EXIT_FAIL;
      break;
    }
    q = g;
    memcpy(q + nq, fq, kept * sizeof *fq);
    free(fq);
    nq += kept;
    file_end[i] = nq;
  }
  mesh_search s;
  memset(&s, 0, sizeof s);
  if (rc == CLI_EXIT_OK && !search_new(&s, m, mesh_methods[a.algo], false)) rc = CLI_EXIT_FAIL;
  /* Room for long paths before timing: a longer one grows the buffer and
  ** searches again (its first, timed search counted). */
  if (rc == CLI_EXIT_OK) {
    astar_vec2 *p = realloc(s.path, 65536 * sizeof *p);
    if (p) {
      s.path = p;
      s.cap = 65536;
    }
  }
  const long repeat = b->repeat > 0 ? b->repeat : 1;
  double *pass_seconds = calloc((size_t)repeat, sizeof *pass_seconds);
  double *micros = calloc(nq ? nq : 1, sizeof *micros);
  double *lengths = calloc(nq ? nq : 1, sizeof *lengths);
  astar_status *status = calloc(nq ? nq : 1, sizeof *status);
  uint64_t *expanded = calloc(nq ? nq : 1, sizeof *expanded);
  if (rc == CLI_EXIT_OK && (!pass_seconds || !micros || !lengths || !status || !expanded)) {
    cli_error("bench: out of memory");
    rc = CLI_EXIT_FAIL;
  }
  cli_out times;
  bool times_open = false;
  if (rc == CLI_EXIT_OK && a.times) {
    times_open = cli_out_open(&times, a.times);
    if (!times_open)
      rc = CLI_EXIT_FAIL;
    else
      fputs("pass,index,micros,length,expanded\n", times.f);
  }
  /* Warm-up, untimed: the first --warmup queries (the workspace and the
  ** method's node pool grow there, not in the timed passes). */
  astar_path_result res;
  if (rc == CLI_EXIT_OK) {
    const size_t warm = (size_t)b->warmup < nq ? (size_t)b->warmup : nq;
    for (size_t i = 0; i < warm; i++) (void)search_run(&s, q[i].start, q[i].goal, &res);
  }
  uint64_t total_expanded = 0;
  for (long pass = 0; rc == CLI_EXIT_OK && pass < repeat; pass++) {
    double sum = 0;
    for (size_t i = 0; i < nq; i++) {
      const double t0 = cli_now_seconds();
      astar_status st =
          astar_finder_find_points(s.f, s.ws, q[i].start, q[i].goal, s.path, s.cap, &res);
      const double dt = cli_now_seconds() - t0;
      if (st == ASTAR_BUFFER_TOO_SMALL) st = search_run(&s, q[i].start, q[i].goal, &res);
      sum += dt;
      if (pass == 0 || dt * 1e6 < micros[i]) micros[i] = dt * 1e6;
      status[i] = st;
      lengths[i] = st == ASTAR_OK ? res.cost : -1;
      expanded[i] = res.stats.expanded;
      if (times_open)
        fprintf(times.f, "%ld,%zu,%.3f,%.10f,%llu\n", pass, i, dt * 1e6, lengths[i],
                (unsigned long long)res.stats.expanded);
    }
    pass_seconds[pass] = sum;
  }
  if (times_open && !cli_out_close(&times)) rc = CLI_EXIT_FAIL;
  if (rc != CLI_EXIT_OK) {
    search_free(&s);
    goto done;
  }
  /* Figures: the median pass; the median query of its best time. */
  size_t solved = 0, mismatches = 0;
  double length_sum = 0;
  for (size_t i = 0; i < nq; i++) {
    total_expanded += expanded[i];
    if (status[i] == ASTAR_OK) {
      solved++;
      length_sum += lengths[i];
    }
  }
  qsort(pass_seconds, (size_t)repeat, sizeof *pass_seconds, cmp_double);
  const double seconds = pass_seconds[repeat / 2];
  double *sorted = malloc((nq ? nq : 1) * sizeof *sorted);
  double median_us = 0;
  if (sorted && nq) {
    memcpy(sorted, micros, nq * sizeof *sorted);
    qsort(sorted, nq, sizeof *sorted, cmp_double);
    median_us = sorted[nq / 2];
  }
  free(sorted);
  /* --check, untimed: every query again, its path kept. */
  if (b->check) {
    mesh_walk w;
    if (!walk_new(&w, m)) {
      cli_error("bench: out of memory");
      rc = CLI_EXIT_FAIL;
    } else {
      const bool optimal = mesh_methods[a.algo] == ASTAR_METHOD_POLYANYA;
      size_t file = 0;
      for (size_t i = 0; i < nq; i++) {
        while (file < nscens && i >= file_end[file]) file++;
        const astar_status st = search_run(&s, q[i].start, q[i].goal, &res);
        const char *why = check_query(&q[i], optimal, st, st == ASTAR_OK ? res.cost : -1, &w,
                                      s.path, st == ASTAR_OK ? res.length : 0);
        if (!why) continue;
        if (mismatches++ < MAX_LISTED)
          fprintf(stderr, "%s:%u: (%.10g,%.10g) -> (%.10g,%.10g): %s (length %.10g, file %.10g)\n",
                  scens[file < nscens ? file : nscens - 1], (unsigned)q[i].line, q[i].start.x,
                  q[i].start.y, q[i].goal.x, q[i].goal.y, why, st == ASTAR_OK ? res.cost : -1.0,
                  q[i].expected);
      }
      walk_free(&w);
      if (mismatches > MAX_LISTED)
        fprintf(stderr, "... and %zu more mismatches\n", mismatches - MAX_LISTED);
      if (mismatches) rc = CLI_EXIT_FAIL;
    }
  }
  search_free(&s);
  const double us = nq ? seconds * 1e6 / (double)nq : 0;
  const double mean_exp = nq ? (double)total_expanded / (double)nq : 0;
  const double mean_len = solved ? length_sum / (double)solved : 0;
  if (b->json) {
    fputs("{\"mesh\":", stdout);
    cli_json_string(stdout, a.mesh);
    printf(",\"algo\":\"%s\",\"queries\":%zu,\"solved\":%zu,", mesh_algos[a.algo], nq, solved);
    if (b->check) printf("\"mismatches\":%zu,", mismatches);
    fputs("\"seconds\":", stdout);
    cli_json_number(stdout, seconds, 9);
    fputs(",\"us_per_query\":", stdout);
    cli_json_number(stdout, us, 4);
    fputs(",\"median_us\":", stdout);
    cli_json_number(stdout, median_us, 4);
    fputs(",\"mean_expanded\":", stdout);
    cli_json_number(stdout, mean_exp, 3);
    fputs(",\"mean_length\":", stdout);
    cli_json_number(stdout, mean_len, 9);
    fputs("}\n", stdout);
  } else {
    if (!b->quiet) describe_mesh(stdout, a.mesh, m);
    printf("%s: %zu queries, %zu solved", mesh_algos[a.algo], nq, solved);
    if (b->check) printf(", %zu mismatches", mismatches);
    printf(", %.6f s, %.3f us/query (median %.3f), %.1f expanded, mean length %.6f\n", seconds, us,
           median_us, mean_exp, mean_len);
  }
done:
  free(pass_seconds);
  free(micros);
  free(lengths);
  free(status);
  free(expanded);
  free(file_end);
  free(q);
  free((void *)scens);
  astar_mesh_free(m);
  return rc;
}

/* ---- astar mesh ------------------------------------------------------------------- */

typedef struct mesh_settings {
  const char *out; /* -o */
  double radius;   /* --radius */
  bool no_merge;   /* --no-merge */
  const char *svg; /* --svg */
  bool json;       /* --json */
} mesh_settings;

static const cli_opt mesh_rows[] = {
    {.name = "--output",
     .alias = "-o",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(mesh_settings, out),
     .sample = "out.mesh",
     .help = "write the mesh to FILE (format version 2); without it\n"
             "only the figures are printed"},
    {.name = "--radius",
     .meta = "R",
     .kind = CLI_NUMBER,
     CLI_AT(mesh_settings, radius),
     .dmin = 0,
     .dmax = 1e6,
     .help = "agent radius: keep every path R away from the obstacles\n"
             "(%r; default 0)"},
    {.name = "--no-merge",
     .kind = CLI_FLAG,
     CLI_AT(mesh_settings, no_merge),
     .help = "keep the triangles (default: merged into convex polygons)"},
    {.name = "--svg",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(mesh_settings, svg),
     .sample = "m.svg",
     .help = "draw the mesh as SVG into FILE"},
    {.name = "--json",
     .kind = CLI_FLAG,
     CLI_AT(mesh_settings, json),
     .help = "print one JSON object instead of the report"},
    CLI_HELP_ROW,
};
static const cli_group mesh_group = CLI_ROWS(mesh_rows);

static const cli_section mesh_sections[] = {
    {"Options:", &mesh_group, 0, 0, NULL, false},
};

static void mesh_intro(FILE *out) {
  fputs("usage: astar mesh MAP.map|MAP.poly|X.mesh [-o OUT.mesh] [--radius R]\n"
        "                  [--no-merge] [--svg F] [OPTIONS]\n"
        "\n"
        "Build a navigation mesh (astar/navmesh_build.h) from a grid map (Moving AI\n"
        "or ASCII: the free space is the passable cells' squares, cell (x, y) the\n"
        "square [x, x+1] x [y, y+1]; where only two diagonally opposite cells of a\n"
        "corner are blocked the free space does not pass through the corner, Anya's\n"
        "rule) or from a polygon map (Polyanya's poly format version 1: the free\n"
        "space is the symmetric difference of its polygons), by constrained Delaunay\n"
        "triangulation with exact predicates, the triangles merged into convex\n"
        "polygons. Prints the polygons, vertices, build time and memory; -o writes\n"
        "the mesh in Polyanya's format version 2. A mesh file given as input is read,\n"
        "checked (astar_mesh_validate) and written again (renumbered, compacted).\n",
        out);
}

static void mesh_outro(FILE *out) {
  fputs("Exit status: 0 done; 1 an unreadable or malformed input (named with its line\n"
        "and column), a map with no free space, or an output that cannot be written;\n"
        "2 usage error. See 'astar --help'.\n",
        out);
}

static const cli_kind mesh_kinds[] = {{"map", "maps", "astar mesh --help"}};
static const cli_page mesh_pages[] = {{CLI_KIND(0), NULL, mesh_intro, mesh_outro}};

const cli_spec cli_mesh_spec = {
    .command = "mesh", CLI_SECTIONS(mesh_sections), CLI_KINDS(mesh_kinds), CLI_PAGES(mesh_pages)};

/* Peak resident memory of the process in bytes, 0 when unknown. Linux:
** VmHWM of /proc/self/status, which starts afresh at exec (getrusage's
** ru_maxrss keeps the peak of the process that forked us: a Python
** harness's own tens of MiB). */
static uint64_t peak_rss(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    char line[256];
    unsigned long long kb = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) found = sscanf(line, "VmHWM: %llu kB", &kb) == 1;
    fclose(f);
    if (found) return (uint64_t)kb * 1024u;
  }
#if defined(__unix__) || defined(__APPLE__)
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
#if defined(__APPLE__)
  return (uint64_t)ru.ru_maxrss;
#else
  return (uint64_t)ru.ru_maxrss * 1024u;
#endif
#else
  return 0;
#endif
}

int cli_cmd_mesh(int argc, char **argv) {
  mesh_settings set;
  memset(&set, 0, sizeof set);
  cli_args a;
  const int prc = cli_parse(&a, &cli_mesh_spec, argc, argv, &set);
  if (prc >= 0) return prc;
  if (a.npos > 1) return cli_usage_error("mesh: unexpected argument '%s'", a.pos[1]);
  if (a.npos != 1)
    return cli_usage_error("mesh: expected MAP (a .map, ASCII, .poly or .mesh file)");
  const char *path = a.pos[0];
  char *text;
  size_t len;
  if (!cli_read_file(path, &text, &len)) return CLI_EXIT_FAIL;
  char word[16];
  first_word(text, len, word, sizeof word);
  const bool is_mesh = strcmp(word, "mesh") == 0, is_poly = strcmp(word, "poly") == 0;
  if (is_mesh && (cli_given(&a, "--radius") || cli_given(&a, "--no-merge"))) {
    free(text);
    return cli_usage_error("mesh: %s: --radius and --no-merge build a mesh from a map; %s is a "
                           "mesh already",
                           cli_given(&a, "--radius") ? "--radius" : "--no-merge", path);
  }
  if (strcmp(word, "hex") == 0) {
    free(text);
    cli_error("%s: a hex map: astar mesh builds from square grid maps and polygon maps", path);
    return CLI_EXIT_FAIL;
  }
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  o.radius = set.radius;
  o.merge = !set.no_merge;
  astar_mesh *own = NULL;
  astar_navmesh *nm = NULL;
  astar_navmesh_stats stats;
  memset(&stats, 0, sizeof stats);
  char input[160];
  double seconds = 0;
  astar_status st = ASTAR_OK;
  bool ok = true;
  if (is_mesh) {
    ok = parse_mesh(path, text, len, &own);
    snprintf(input, sizeof input, "mesh");
  } else if (is_poly) {
    astar_polymap *pm = NULL;
    astar_mesh_fault fault;
    memset(&fault, 0, sizeof fault);
    st = astar_polymap_read(&pm, text, len, NULL, &fault);
    if (st != ASTAR_OK) {
      report_fault(path, st, &fault);
      ok = false;
    } else {
      snprintf(input, sizeof input, "polygon map, %zu polygons", astar_polymap_count(pm));
      const double t0 = cli_now_seconds();
      st = astar_navmesh_from_polymap(&nm, pm, &o, NULL);
      seconds = cli_now_seconds() - t0;
      astar_polymap_free(pm);
    }
  } else {
    astar_grid *g = NULL;
    ok = cli_parse_map(path, text, len, &g, NULL, NULL);
    if (ok) {
      snprintf(input, sizeof input, "grid map %d x %d", (int)astar_grid_width(g),
               (int)astar_grid_height(g));
      const double t0 = cli_now_seconds();
      st = astar_navmesh_from_grid(&nm, g, &o, NULL);
      seconds = cli_now_seconds() - t0;
      astar_grid_free(g);
    }
  }
  free(text);
  if (ok && !is_mesh && st != ASTAR_OK) {
    cli_error("%s: cannot build the mesh: %s", path,
              st == ASTAR_NO_PATH ? "the map has no free space" : astar_strerror(st));
    ok = false;
  }
  if (!ok) return CLI_EXIT_FAIL;
  const astar_mesh *m = nm ? astar_navmesh_mesh(nm) : own;
  if (nm) astar_navmesh_stats_get(nm, &stats);
  int rc = CLI_EXIT_OK;
  size_t written = 0;
  if (set.out) {
    size_t need = 0;
    st = astar_mesh_write(m, NULL, 0, &need);
    char *buf = st == ASTAR_BUFFER_TOO_SMALL || st == ASTAR_OK ? malloc(need + 1) : NULL;
    if (buf) st = astar_mesh_write(m, buf, need + 1, &written);
    if (!buf || st != ASTAR_OK) {
      cli_error("%s: cannot write the mesh: %s", set.out,
                astar_strerror(buf ? st : ASTAR_NO_MEMORY));
      rc = CLI_EXIT_FAIL;
    } else if (!cli_write_file(set.out, buf, written)) {
      rc = CLI_EXIT_FAIL;
    }
    free(buf);
  }
  if (rc == CLI_EXIT_OK && set.svg && !write_svg(set.svg, m, NULL, 0, NULL, 0, NULL))
    rc = CLI_EXIT_FAIL;
  size_t polygons = 0;
  for (size_t i = 0; i < astar_mesh_polygon_count(m); i++)
    polygons += astar_mesh_polygon(m, i, NULL, NULL) > 0;
  const uint64_t rss = peak_rss();
  if (set.json) {
    fputs("{\"input\":", stdout);
    cli_json_string(stdout, path);
    fputs(",\"kind\":", stdout);
    cli_json_string(stdout, is_mesh ? "mesh" : is_poly ? "poly" : "grid");
    fputs(",\"radius\":", stdout);
    cli_json_number(stdout, set.radius, 9);
    printf(",\"merge\":%s,\"polygons\":%zu,\"vertices\":%zu,\"area\":", o.merge ? "true" : "false",
           polygons, astar_mesh_vertex_count(m));
    cli_json_number(stdout, astar_mesh_area(m), 6);
    printf(",\"constraints\":%zu,\"triangles\":%zu,\"free_triangles\":%zu,\"build_ms\":",
           stats.constraints, stats.triangles, stats.free_triangles);
    cli_json_number(stdout, seconds * 1e3, 3);
    /* Peak memory varies from run to run: in MiB with a fraction. */
    printf(",\"builder_bytes\":%zu,\"mesh_bytes\":%zu,\"peak_rss_mib\":%.3f,\"written\":%zu}\n",
           stats.memory, astar_mesh_memory(m), (double)rss / 1048576.0, written);
  } else {
    printf("input:    %s (%s)\n", path, input);
    if (!is_mesh)
      printf("options:  radius %g, %s\n", set.radius,
             o.merge ? "triangles merged into convex polygons" : "triangles");
    printf("mesh:     %zu polygons, %zu vertices, area %.10g\n", polygons,
           astar_mesh_vertex_count(m), astar_mesh_area(m));
    if (nm) {
      printf("build:    %.3f ms: %zu constraint edges, %zu triangles (%zu free)\n", seconds * 1e3,
             stats.constraints, stats.triangles, stats.free_triangles);
      printf("memory:   builder %zu bytes (mesh %zu)", stats.memory, astar_mesh_memory(m));
    } else {
      printf("memory:   mesh %zu bytes", astar_mesh_memory(m));
    }
    if (rss) printf(", peak resident %.1f MiB", (double)rss / 1048576.0);
    putchar('\n');
    if (set.out && rc == CLI_EXIT_OK) printf("written:  %s (%zu bytes)\n", set.out, written);
  }
  astar_navmesh_free(nm);
  astar_mesh_free(own);
  return rc;
}
