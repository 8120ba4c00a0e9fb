/*
** solve_extras.c -- the game-loop options of `astar solve`: a sliced search
** under a per-step budget, several goals, islands (with retargeting),
** influence cones and fog of war. They need objects built on the loaded
** grid, so they are parsed here and run by cli_solve_extras instead of the
** plain one-shot search.
*/
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A real number of --cone (R or V): finite, no leading space, within
** [min, ASTAR_OPTION_MAX] (above min when min_exclusive), so that it fits a
** float; *stop gets the character after it. */
static bool cone_number(const char *s, double min, bool min_exclusive, double *out,
                        const char **stop) {
  char *e;
  if (!*s || isspace((unsigned char)*s)) return false;
  const double v = strtod(s, &e);
  *stop = e;
  *out = v;
  return e != s && isfinite(v) && (min_exclusive ? v > min : v >= min) && v <= ASTAR_OPTION_MAX;
}

/* --goals X,Y[;X,Y...]: added to those already given (dest: the cli_extras). */
static bool goals_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  cli_extras *x = dest;
  size_t n = x->ngoals;
  for (const char *s = text;; s++) {
    int32_t xy[2];
    const char *end;
    if (n == CLI_MAX_GOALS || !cli_scan_cells(s, 2, xy, &end) || (*end != ';' && *end != '\0'))
      return false;
    x->goals[n++] = (astar_point){xy[0], xy[1]};
    if (*end == '\0') break;
    s = end;
  }
  x->ngoals = n;
  return true;
}

static void goals_range(char *buf, size_t size) {
  snprintf(buf, size,
           "X,Y[;X,Y...] (at most %d goals) with cell coordinates, integers from 0 to %d",
           CLI_MAX_GOALS, CLI_CELL_MAX);
}

/* --cone X,Y,R,V: one more cone (dest: the cli_extras). */
static bool cone_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  cli_extras *x = dest;
  int32_t xy[2];
  double r = 0, val = 0;
  const char *s;
  if (x->ncones == CLI_MAX_CONES || !cli_scan_cells(text, 2, xy, &s) || *s != ',' ||
      !cone_number(s + 1, 0.0, true, &r, &s) || *s != ',' ||
      !cone_number(s + 1, 0.0, false, &val, &s) || *s != '\0')
    return false;
  x->cones[x->ncones].x = xy[0];
  x->cones[x->ncones].y = xy[1];
  x->cones[x->ncones].r = (float)r;
  x->cones[x->ncones].v = (float)val;
  x->ncones++;
  return true;
}

static void cone_range(char *buf, size_t size) {
  snprintf(buf, size,
           "X,Y,R,V with cell coordinates, integers from 0 to %d, and numbers R > 0 and V >= 0 up "
           "to %g (at most %d cones)",
           CLI_CELL_MAX, ASTAR_OPTION_MAX, CLI_MAX_CONES);
}

/* --region X0,Y0,X1,Y1 (dest: the cli_extras). */
static bool region_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  cli_extras *x = dest;
  int32_t r[4];
  if (!cli_scan_cells(text, 4, r, NULL)) return false;
  memcpy(x->rect, r, sizeof r);
  x->region = true;
  return true;
}

static void region_range(char *buf, size_t size) {
  snprintf(buf, size, "X0,Y0,X1,Y1 with cell coordinates, integers from 0 to %d", CLI_CELL_MAX);
}

static const cli_opt extras_rows[] = {
    {.name = "--budget",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(cli_extras, budget),
     .min = 1,
     .max = 1000000000,
     .help = "sliced search: N expansions per step; reports the steps"},
    {.name = "--goals",
     .meta = "X,Y[;X,Y...]",
     .kind = CLI_CUSTOM,
     .size = sizeof(cli_extras),
     .parse = goals_parse,
     .range_fn = goals_range,
     .sample = "0,0",
     .help = "more goals: the path ends at the cheapest one"},
    {.name = "--islands",
     .kind = CLI_FLAG,
     CLI_AT(cli_extras, islands),
     .help = "precompute islands: an unreachable goal fails at once"},
    {.name = "--retarget",
     .kind = CLI_FLAG,
     CLI_AT(cli_extras, retarget),
     .help = "go to the reachable cell nearest the goal (implies\n"
             "--islands)"},
    {.name = "--cone",
     .meta = "X,Y,R,V",
     .kind = CLI_CUSTOM,
     .size = sizeof(cli_extras),
     .parse = cone_parse,
     .range_fn = cone_range,
     .sample = "0,0,1,1",
     .help = "an influence layer: V*(1-d/R) within distance R of (X,Y)\n"
             "added to the entry cost factor (repeatable)"},
    {.name = "--fog",
     .meta = "R",
     .kind = CLI_INT,
     CLI_AT(cli_extras, fog),
     .max = 1000000,
     .help = "the searcher knows only the cells within R of the start\n"
             "(see --unknown)"},
    {.name = "--region",
     .meta = "X0,Y0,X1,Y1",
     .kind = CLI_CUSTOM,
     .size = sizeof(cli_extras),
     .parse = region_parse,
     .range_fn = region_range,
     .sample = "0,0,1,1",
     .help = "the goal is any cell of this rectangle (GX,GY ignored)"},
    {.name = "--refine",
     .kind = CLI_FLAG,
     CLI_AT(cli_extras, refine),
     .help = "first a quick path with terrain ignored (--terrain-scale 0),\n"
             "reported, then the exact one"},
};
const cli_group cli_extras_group = CLI_ROWS(extras_rows);

bool cli_extras_active(const cli_extras *x) {
  return x->budget || x->ngoals || x->islands || x->retarget || x->ncones || x->fog >= 0 ||
         x->region || x->refine;
}

bool cli_extras_fit(const cli_extras *x, const astar_grid *grid, const char *command,
                    const char *map) {
  astar_point cells[CLI_MAX_GOALS + 2];
  const char *option[CLI_MAX_GOALS + 2];
  size_t n = 0;
  for (size_t i = 0; i < x->ngoals; i++) cells[n] = x->goals[i], option[n++] = "--goals";
  for (size_t k = 0; x->region && k < 2; k++)
    cells[n] = (astar_point){x->rect[2 * k], x->rect[2 * k + 1]}, option[n++] = "--region";
  for (size_t i = 0; i < n; i++) {
    if (astar_grid_contains(grid, cells[i].x, cells[i].y)) continue;
    const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
    cli_usage_error("%s: %s: the cell (%d,%d) lies outside the %d x %d map %s (x 0..%d, y 0..%d)",
                    command, option[i], (int)cells[i].x, (int)cells[i].y, (int)w, (int)h, map,
                    (int)w - 1, (int)h - 1);
    return false;
  }
  return true;
}

/* --region: is c inside the rectangle ctx (int32_t[4], two corners)? */
static bool in_rect(void *ctx, astar_point c) {
  const int32_t *r = ctx;
  const int32_t x0 = r[0] < r[2] ? r[0] : r[2], x1 = r[0] < r[2] ? r[2] : r[0];
  const int32_t y0 = r[1] < r[3] ? r[1] : r[3], y1 = r[1] < r[3] ? r[3] : r[1];
  return c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1;
}

/* Begin the search the extras describe on ws. */
static astar_status begin(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                          const cli_extras *x, astar_point start, astar_point goal,
                          astar_point *goals) {
  if (x->region) return astar_search_begin_region(ws, grid, opt, start, in_rect, (void *)x->rect);
  if (x->ngoals) {
    goals[0] = goal;
    memcpy(goals + 1, x->goals, x->ngoals * sizeof *goals);
    return astar_search_begin_multi(ws, grid, opt, start, goals, x->ngoals + 1);
  }
  return astar_search_begin(ws, grid, opt, start, goal);
}

bool cli_solve_extras(const cli_extras *x, const astar_grid *grid, const astar_options *base,
                      astar_point start, astar_point goal, cli_solution *sol) {
  memset(sol, 0, sizeof *sol);
  astar_options opt = *base;
  astar_workspace *ws = NULL;
  astar_islands *isl = NULL;
  astar_layer *layer = NULL;
  astar_knowledge *seen = NULL;
  const astar_layer *layers[1];
  const float weights[1] = {1.0f};
  astar_point goals[CLI_MAX_GOALS + 1];
  bool ok = false;
  size_t cap = astar_grid_count_passable(grid);
  if (cap == 0) cap = 1;
  sol->path = malloc(cap * sizeof *sol->path);
  astar_status st = astar_workspace_new(&ws, grid, NULL);
  if (st == ASTAR_OK && opt.turn_penalty > 0) st = astar_workspace_reserve_turns(ws, grid);
  if (st == ASTAR_OK && (x->islands || x->retarget)) {
    st = astar_islands_new(&isl, grid, &opt, NULL);
    opt.islands = isl;
    opt.retarget = x->retarget;
  }
  if (st == ASTAR_OK && x->ncones) {
    st = astar_layer_new(&layer, astar_grid_width(grid), astar_grid_height(grid), NULL);
    for (size_t i = 0; st == ASTAR_OK && i < x->ncones; i++)
      st = astar_layer_add_cone(layer, x->cones[i].x, x->cones[i].y, x->cones[i].r, x->cones[i].v);
    layers[0] = layer;
    opt.layers = layers;
    opt.layer_weights = weights;
    opt.nlayers = 1;
  }
  if (st == ASTAR_OK && x->fog >= 0) {
    st = astar_knowledge_new(&seen, grid, NULL);
    if (st == ASTAR_OK)
      st = astar_knowledge_reveal_radius(seen, grid, start.x, start.y, x->fog, NULL);
    opt.knowledge = seen;
  }
  if (st != ASTAR_OK || !sol->path) {
    cli_error("cannot set up the search: %s",
              astar_strerror(st != ASTAR_OK ? st : ASTAR_NO_MEMORY));
    goto done;
  }
  if (x->refine) {
    /* Patel 3.4.4: a quick draft with the terrain underestimated (ignored),
    ** then the exact path; a game would show the draft at once. */
    astar_options quick = opt;
    quick.terrain_scale = 0.0;
    astar_result qr;
    const double q0 = cli_now_seconds();
    st = begin(ws, grid, &quick, x, start, goal, goals);
    if (st == ASTAR_OK) {
      while (astar_search_step(ws, 0, NULL) == ASTAR_IN_PROGRESS) {
      }
      st = astar_search_finish(ws, sol->path, cap, &qr);
    }
    const double q1 = cli_now_seconds();
    if (st == ASTAR_OK) {
      double real;
      astar_path_cost(grid, &opt, sol->path, qr.length, &real, NULL);
      printf("draft:    terrain ignored: %zu cells, cost %.4f with the real terrain, "
             "%llu expanded in %.3f ms\n",
             qr.length, real, (unsigned long long)qr.stats.expanded, (q1 - q0) * 1e3);
    } else {
      printf("draft:    %s\n", astar_strerror(st));
    }
  }
  const double t0 = cli_now_seconds();
  st = begin(ws, grid, &opt, x, start, goal, goals);
  if (st == ASTAR_OK) {
    do {
      sol->steps++;
    } while (astar_search_step(ws, x->budget, NULL) == ASTAR_IN_PROGRESS);
    st = astar_search_finish(ws, sol->path, cap, &sol->result);
    if (!x->budget) sol->steps = 0; /* one-shot: no steps to report */
  } else {
    sol->result.end = (astar_point){-1, -1};
    sol->result.cause = st;
  }
  sol->seconds = cli_now_seconds() - t0;
  sol->status = st;
  sol->len = (st == ASTAR_OK || st == ASTAR_PARTIAL) ? sol->result.length : 0;
  /* The report and --smooth judge the path on what the search planned on. */
  sol->knowledge = seen;
  sol->layer = layer;
  seen = NULL;
  layer = NULL;
  ok = true;
done:
  astar_knowledge_free(seen);
  astar_layer_free(layer);
  astar_islands_free(isl);
  astar_workspace_free(ws);
  if (!ok) {
    free(sol->path);
    sol->path = NULL;
  }
  return ok;
}

void cli_extras_options(const cli_solution *sol, const astar_options *base, astar_options *opt,
                        const astar_layer *layers[1], float weights[1]) {
  *opt = *base;
  if (sol->knowledge) opt->knowledge = sol->knowledge;
  if (sol->layer) { /* as cli_solve_extras searched: one layer of weight 1 */
    layers[0] = sol->layer;
    weights[0] = 1.0f;
    opt->layers = layers;
    opt->layer_weights = weights;
    opt->nlayers = 1;
  }
}
