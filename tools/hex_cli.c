/*
** hex_cli.c -- hex maps (astar/hex.h) in the tool: telling a hex map apart
** from the square formats, the engine's search options (a table graphs
** share), and `astar solve` on it (the engine on the hex grid as a space; the path as offset
** coordinates and an ASCII drawing in which shoved rows are indented, or
** shoved columns drawn half a line lower). `astar render` on hex maps is in
** hex_render.c.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <astar/landmarks.h>

#include "cli.h"

/* Hex drawings are two characters a cell. */
#define PICTURE_MAX_WIDTH 100

/* ---- telling hex maps apart ---------------------------------------------------- */

bool cli_is_hex_map(const char *path) {
  size_t len;
  const char *text = cli_peek_map(path, &len); /* kept for the loader, which reads it once */
  return text && astar_hex_is_map(text, len);
}

bool cli_load_hex_map(const char *path, astar_hex_grid **grid, astar_point *start,
                      astar_point *goal) {
  char *text;
  size_t len;
  *grid = NULL;
  if (!cli_read_map(path, &text, &len)) return false;
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  const astar_status st = astar_hex_parse_map(grid, text, len, NULL, start, goal, &err);
  free(text);
  if (st != ASTAR_OK) {
    cli_report_parse_error(path, st, &err);
    *grid = NULL;
    return false;
  }
  return true;
}

const char *cli_hex_shape_name(const astar_hex_grid *grid) {
  static const char *const names[2][2] = {{"pointy odd-r", "pointy even-r"},
                                          {"flat odd-q", "flat even-q"}};
  return names[astar_hex_grid_orientation(grid) == ASTAR_HEX_FLAT]
              [astar_hex_grid_layout(grid) == ASTAR_HEX_EVEN];
}

void cli_print_hex_map_line(FILE *out, const char *label, const astar_hex_grid *grid) {
  const int32_t w = astar_hex_grid_width(grid), h = astar_hex_grid_height(grid);
  bool terrain = false;
  for (int32_t y = 0; y < h && !terrain; y++)
    for (int32_t x = 0; x < w && !terrain; x++) terrain = astar_hex_grid_terrain(grid, x, y) != 1;
  fprintf(out, "map:      %s (hex %s, %d x %d, %zu open cells%s)\n", label,
          cli_hex_shape_name(grid), (int)w, (int)h, astar_hex_grid_count_passable(grid),
          terrain ? ", with terrain costs" : "");
}

/* ---- search options: the engine's, on hex maps and graphs -------------------------- */

static const char *const tie_names[] = {"larger-g", "newest", NULL};
static const int tie_values[] = {ASTAR_TIE_LARGER_G, ASTAR_TIE_NEWEST};
static const char *const reopen_names[] = {"auto", "always", "never", NULL};

/* The first four are what graphs take (cli_engine_basic_group). */
static const cli_opt engine_rows[] = {
    {.name = "--algo",
     .meta = "NAME",
     .kind = CLI_CUSTOM,
     .off = offsetof(astar_engine_options, method),
     .parse = cli_space_algo_parse,
     .range_fn = cli_space_algo_range,
     .sample = "astar",
     .help = "%v (default astar; bidir: bidirectional A*)"},
    {.name = "--weight",
     .meta = "W",
     .kind = CLI_NUMBER,
     CLI_AT(astar_engine_options, weight),
     .help = "astar: multiply h by W >= 0 (default 1; > 1: cost <=\n"
             "W x optimal)"},
    {.name = "--tie",
     .meta = "T",
     .kind = CLI_CHOICE,
     CLI_AT(astar_engine_options, tie),
     .names = tie_names,
     .values = tie_values,
     .help = "equal-f order: larger-g (default), newest"},
    {.name = "--max-expansions",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(astar_engine_options, max_expansions),
     .max = UINT64_MAX,
     .help = "give up after N expansions (default 0 = no limit)"},
    {.name = "--reopen",
     .meta = "R",
     .kind = CLI_CHOICE,
     CLI_AT(astar_engine_options, reopen),
     .names = reopen_names,
     .help = "reopen closed cells: auto (default), always, never"},
    {.name = "--partial",
     .kind = CLI_FLAG,
     CLI_AT(astar_engine_options, partial),
     .help = "without a full path, the path to the best cell found"},
};
const cli_group cli_engine_group = CLI_ROWS(engine_rows);
const cli_group cli_engine_basic_group = {engine_rows, 4};

void cli_hex_describe(FILE *out, const astar_engine_options *eo) {
  fprintf(out, "algorithm %s, heuristic hex distance", cli_space_algo_name(eo->method));
  if (eo->weight != 1 && eo->method == ASTAR_METHOD_ASTAR) fprintf(out, " x %g", eo->weight);
  fprintf(out, ", ties %s", tie_names[eo->tie == ASTAR_TIE_NEWEST]);
  if (eo->reopen != ASTAR_REOPEN_AUTO)
    fprintf(out, ", reopen %s", reopen_names[(unsigned)eo->reopen < 3 ? eo->reopen : 0]);
  if (eo->max_expansions)
    fprintf(out, ", max %llu expansions", (unsigned long long)eo->max_expansions);
}

astar_workspace *cli_hex_workspace(const astar_space *sp, bool backward) {
  /* Workspaces are made for a grid; a 1 x 1 one, then reserved for the space. */
  astar_grid *tiny = NULL;
  astar_workspace *ws = NULL;
  astar_status st = astar_grid_new(&tiny, 1, 1, NULL);
  if (st == ASTAR_OK) st = astar_workspace_new(&ws, tiny, NULL);
  astar_grid_free(tiny);
  if (st == ASTAR_OK)
    st = astar_workspace_reserve_space(ws, sp, backward ? ASTAR_RESERVE_BACKWARD : 0u);
  if (st != ASTAR_OK) {
    cli_error("cannot create a search workspace: %s", astar_strerror(st));
    astar_workspace_free(ws);
    return NULL;
  }
  return ws;
}

/* ---- the ASCII drawing ---------------------------------------------------------- */

static char cell_char(const astar_hex_grid *g, const uint8_t *on_path, astar_point s,
                      astar_point goal, int32_t x, int32_t y) {
  if (x == s.x && y == s.y) return 'S';
  if (x == goal.x && y == goal.y) return 'G';
  if (!astar_hex_grid_passable(g, x, y)) return '#';
  if (on_path && on_path[(size_t)y * (size_t)astar_hex_grid_width(g) + (size_t)x]) return '*';
  const float t = astar_hex_grid_terrain(g, x, y);
  if (t == 1.0f) return '.';
  if (t < 1.0f) return ',';
  if (t <= 9.0f && t == (float)(int)t) return (char)('0' + (int)t);
  return '~';
}

void cli_hex_draw(FILE *out, const astar_hex_grid *g, const astar_point *path, size_t n,
                  astar_point start, astar_point goal) {
  const int32_t w = astar_hex_grid_width(g), h = astar_hex_grid_height(g);
  const bool flat = astar_hex_grid_orientation(g) == ASTAR_HEX_FLAT;
  const int shoved = astar_hex_grid_layout(g) == ASTAR_HEX_EVEN ? 0 : 1; /* parity shoved */
  uint8_t *on_path = calloc((size_t)w * (size_t)h, 1);
  for (size_t i = 0; on_path && i < n; i++)
    if (astar_hex_grid_contains(g, path[i].x, path[i].y))
      on_path[(size_t)path[i].y * (size_t)w + (size_t)path[i].x] = 1;
  /* Column x is at character 2x (+1 in a shoved row of a pointy map). */
  fputs("     ", out);
  for (int32_t x = 0; x < w; x++) fprintf(out, "%c%s", '0' + x % 10, x + 1 < w ? " " : "\n");
  for (int32_t y = 0; y < h; y++) {
    if (!flat) {
      fprintf(out, "%3d  %s", (int)y, (y & 1) == shoved ? " " : "");
      for (int32_t x = 0; x < w; x++)
        fprintf(out, "%c%s", cell_char(g, on_path, start, goal, x, y), x + 1 < w ? " " : "");
      fputc('\n', out);
      continue;
    }
    /* Flat: the row on two lines, the shoved columns on the lower one. */
    for (int line = 0; line < 2; line++) {
      if (line == 0)
        fprintf(out, "%3d  ", (int)y);
      else
        fputs("     ", out);
      int32_t last = -1;
      for (int32_t x = 0; x < w; x++)
        if (((x & 1) == shoved) == (line == 1)) last = x;
      for (int32_t x = 0; x <= last; x++) {
        const bool here = ((x & 1) == shoved) == (line == 1);
        fputc(here ? cell_char(g, on_path, start, goal, x, y) : ' ', out);
        if (x < last) fputc(' ', out);
      }
      fputc('\n', out);
    }
  }
  free(on_path);
  bool digit = false, below = false, other = false;
  for (int32_t y = 0; y < h; y++) {
    for (int32_t x = 0; x < w; x++) {
      const char c = cell_char(g, NULL, (astar_point){-1, -1}, (astar_point){-1, -1}, x, y);
      digit |= c >= '2' && c <= '9';
      below |= c == ',';
      other |= c == '~';
    }
  }
  fputs("legend: S start, G goal, * path, # blocked, . open", out);
  if (digit) fputs(", 2-9 terrain cost", out);
  if (below) fputs(", ',' terrain cost below 1", out);
  if (other) fputs(", ~ other terrain cost", out);
  fprintf(out, "\n        (%s)\n",
          flat ? "shoved columns are drawn half a row lower" : "shoved rows are indented");
}

/* ---- astar solve MAP.hex ------------------------------------------------------------ */

/* Trace lines of an engine search, in solve --trace's format (trace.c). */
typedef struct hex_trace {
  cli_trace trace;
  const astar_hex_grid *grid;
} hex_trace;

static void trace_event(void *ctx, const astar_engine_event *e) {
  const hex_trace *t = ctx;
  astar_event ev;
  memset(&ev, 0, sizeof ev);
  ev.type = e->type;
  ev.cell = astar_hex_grid_cell(t->grid, e->node);
  ev.parent = astar_hex_grid_cell(t->grid, e->parent);
  ev.g = e->g;
  ev.h = e->h;
  ev.f = e->f;
  ev.expanded = e->expanded;
  ev.direction = -1;
  cli_trace_event(ctx, &ev);
}

static bool trace_begin(hex_trace *t, const char *path, const char *label,
                        const astar_hex_grid *grid, astar_point s, astar_point g,
                        const astar_engine_options *eo) {
  memset(t, 0, sizeof *t);
  t->grid = grid;
  cli_trace *tr = &t->trace;
  tr->path = path;
  tr->to_stdout = strcmp(path, "-") == 0;
  if (!tr->to_stdout && !cli_out_open(&tr->file, path)) return false;
  tr->out = tr->to_stdout ? stdout : tr->file.f;
  fputs("{\"map\":", tr->out);
  cli_json_string(tr->out, label);
  fprintf(tr->out,
          ",\"hex\":\"%s\",\"width\":%d,\"height\":%d,\"start\":[%d,%d],\"goal\":[%d,%d],"
          "\"options\":{\"algorithm\":\"%s\",\"heuristic\":\"hex\",\"weight\":%g,\"tie\":\"%s\","
          "\"reopen\":\"%s\",\"max_expansions\":%llu}}\n",
          cli_hex_shape_name(grid), (int)astar_hex_grid_width(grid),
          (int)astar_hex_grid_height(grid), (int)s.x, (int)s.y, (int)g.x, (int)g.y,
          cli_space_algo_name(eo->method), eo->weight, tie_names[eo->tie == ASTAR_TIE_NEWEST],
          reopen_names[(unsigned)eo->reopen < 3 ? eo->reopen : 0],
          (unsigned long long)eo->max_expansions);
  return true;
}

bool cli_hex_run(const astar_hex_grid *grid, const astar_engine_options *eo, uint32_t landmarks,
                 int landmark_choice, astar_point start, astar_point goal, cli_solution *sol) {
  memset(sol, 0, sizeof *sol);
  astar_space hs, sp;
  if (astar_hex_space(grid, &hs) != ASTAR_OK) return false;
  /* --landmarks: the hex space wrapped with a table built on it. */
  astar_landmarks *lm = NULL;
  astar_landmarks_space_holder lmh;
  sp = hs;
  if (landmarks) {
    astar_landmark_options lo;
    astar_landmark_options_init(&lo);
    lo.count = landmarks;
    lo.choice = (astar_landmark_choice)landmark_choice;
    const double t0 = cli_now_seconds();
    astar_status st = astar_landmarks_new(&lm, &hs, &lo, NULL);
    if (st == ASTAR_OK) st = astar_landmarks_space(&sp, &lmh, &hs, lm);
    if (st != ASTAR_OK) {
      cli_error("cannot build the landmarks: %s", astar_strerror(st));
      astar_landmarks_free(lm);
      return false;
    }
    sol->has_pre = true;
    sol->pre_seconds = cli_now_seconds() - t0;
    sol->pre_bytes = astar_landmarks_memory(lm);
  }
  astar_workspace *ws = cli_hex_workspace(&sp, eo->method == ASTAR_METHOD_BIDIRECTIONAL);
  /* A path visits a cell at most once. */
  size_t cap = astar_hex_grid_count_passable(grid);
  if (cap == 0) cap = 1;
  astar_node *nodes = malloc(cap * sizeof *nodes);
  sol->path = malloc(cap * sizeof *sol->path);
  if (!ws || !nodes || !sol->path) {
    if (ws) cli_error("cannot allocate the path");
    astar_workspace_free(ws);
    astar_landmarks_free(lm);
    free(nodes);
    cli_solution_free(sol);
    return false;
  }
  astar_engine_result er;
  const double t0 = cli_now_seconds();
  sol->status = astar_space_find_path(ws, &sp, eo, astar_hex_grid_node(grid, start),
                                      astar_hex_grid_node(grid, goal), nodes, cap, &er);
  sol->seconds = cli_now_seconds() - t0;
  if (sol->status == ASTAR_OK || sol->status == ASTAR_PARTIAL) {
    sol->len = er.length;
    for (size_t i = 0; i < er.length; i++) sol->path[i] = astar_hex_grid_cell(grid, nodes[i]);
  }
  sol->result.cost = er.cost;
  sol->result.length = er.length;
  sol->result.stats = er.stats;
  sol->result.cause = er.cause;
  sol->result.end = astar_hex_grid_cell(grid, er.end);
  astar_workspace_free(ws);
  astar_landmarks_free(lm);
  free(nodes);
  return true;
}

void cli_hex_solve_intro(FILE *out) {
  fprintf(out,
          "usage: astar solve MAP.hex SX SY GX GY [OPTIONS]\n"
          "       astar solve MAP.hex [OPTIONS]     (a map with S and G cells)\n"
          "\n"
          "Find one path on a hex map (a file whose first line is `hex pointy|flat\n"
          "[odd-r|even-r|odd-q|even-q]`; see README). x is the column, y the row of the\n"
          "offset coordinates, (0,0) the top left. Prints the outcome, cost, length,\n"
          "statistics, the path as (x,y) and, for maps up to %d cells wide, a picture.\n",
          PICTURE_MAX_WIDTH);
}

void cli_hex_solve_outro(FILE *out) {
  fputs("Exit status: 0 path found; 1 no path (a blocked start or goal included) or an\n"
        "unreadable or malformed map; 2 usage error (a start or goal outside the map\n"
        "included). See 'astar --help'.\n",
        out);
}

int cli_hex_solve(const cli_args *a, const astar_engine_options *eo,
                  const cli_landmark_settings *landmarks, int picture, const char *trace_path) {
  const int npos = a->npos;
  const char *const *pos = a->pos;
  const char *pos_names[5] = {"MAP", "SX", "SY", "GX", "GY"};
  if (npos > 5) return cli_usage_error("solve: unexpected argument '%s'", pos[5]);
  if (npos != 1 && npos != 5)
    return cli_usage_error("solve: expected MAP and four coordinates SX SY GX GY, or MAP alone "
                           "(see 'astar solve MAP.hex --help')");
  int32_t c[4] = {0, 0, 0, 0};
  for (int i = 1; i < npos; i++)
    if (!cli_parse_cells(pos_names[i], NULL, pos[i], 1, &c[i - 1])) return CLI_EXIT_USAGE;

  const char *path = pos[0];
  const char *label = strcmp(path, "-") == 0 ? "(stdin)" : path;
  astar_hex_grid *grid;
  astar_point s, g;
  if (!cli_load_hex_map(path, &grid, &s, &g)) return CLI_EXIT_FAIL;
  int rc = CLI_EXIT_USAGE;
  if (npos == 5) {
    s = (astar_point){c[0], c[1]};
    g = (astar_point){c[2], c[3]};
  } else if (s.x < 0 || g.x < 0) {
    cli_usage_error("solve: %s has no %s cell; give the coordinates SX SY GX GY", path,
                    s.x >= 0   ? "'G'"
                    : g.x >= 0 ? "'S'"
                               : "'S' or 'G'");
    goto done;
  }
  const int32_t w = astar_hex_grid_width(grid), h = astar_hex_grid_height(grid);
  for (int i = 0; i < 2; i++) {
    const astar_point pt = i ? g : s;
    if (!astar_hex_grid_contains(grid, pt.x, pt.y)) {
      cli_usage_error("solve: the %s (%d,%d) lies outside the %d x %d map %s (x 0..%d, y 0..%d)",
                      i ? "goal" : "start", (int)pt.x, (int)pt.y, (int)w, (int)h, path, (int)w - 1,
                      (int)h - 1);
      goto done;
    }
  }
  rc = CLI_EXIT_FAIL;
  hex_trace trace;
  astar_engine_options run = *eo;
  if (trace_path) {
    if (!trace_begin(&trace, trace_path, label, grid, s, g, eo)) goto done;
    run.observer = trace_event;
    run.observer_ctx = &trace;
  }
  cli_solution sol;
  if (!cli_hex_run(grid, &run, landmarks->count, landmarks->choice, s, g, &sol)) {
    if (trace_path) cli_trace_abort(&trace.trace);
    goto done;
  }
  rc = sol.status == ASTAR_OK ? CLI_EXIT_OK : CLI_EXIT_FAIL;
  if (trace_path && !cli_trace_end(&trace.trace, &sol)) rc = CLI_EXIT_FAIL;
  if (!trace_path || !trace.trace.to_stdout) {
    cli_print_hex_map_line(stdout, label, grid);
    fputs("options:  ", stdout);
    cli_hex_describe(stdout, eo);
    printf("\nquery:    (%d,%d) -> (%d,%d)\n", (int)s.x, (int)s.y, (int)g.x, (int)g.y);
    cli_print_solution(stdout, &sol, true);
    if (picture == 1 || (picture == -1 && w <= PICTURE_MAX_WIDTH)) {
      putchar('\n');
      cli_hex_draw(stdout, grid, sol.path, sol.len, s, g);
    }
  }
  cli_solution_free(&sol);
done:
  astar_hex_grid_free(grid);
  return rc;
}
