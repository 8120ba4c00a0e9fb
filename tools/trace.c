/*
** trace.c -- `astar solve --trace FILE`: every event of the search observer
** (astar/search.h) as one JSON object per line, between a header line (map,
** query, options) and a result line (status, cost, path). The format is
** documented in docs/seeing-the-search.md.
*/
#include <errno.h>
#include <math.h>
#include <string.h>

#include "cli.h"

/* Indexed by astar_event_type. */
static const char *const event_names[] = {"push", "expand", "improve",   "reopen", "goal",
                                          "scan", "drop",   "iteration", "meet"};

/* Indexed by astar_status; stable machine-readable names. */
static const char *const status_names[] = {"ok",
                                           "no_path",
                                           "limit_reached",
                                           "start_blocked",
                                           "goal_blocked",
                                           "buffer_too_small",
                                           "out_of_bounds",
                                           "invalid_argument",
                                           "too_large",
                                           "no_memory",
                                           "parse_error",
                                           "unsupported",
                                           "capacity",
                                           "in_progress",
                                           "partial",
                                           "stopped",
                                           "stale",
                                           "turns_not_reserved",
                                           "queue_full",
                                           "mismatch",
                                           "expired"};

const char *cli_status_key(astar_status st) {
  size_t n = sizeof status_names / sizeof status_names[0];
  return (unsigned)st < n ? status_names[st] : "unknown";
}

/* A cost as a JSON number: integers plainly, others with 10 significant digits. */
static void put_cost(FILE *out, double v) {
  char buf[64];
  if (!isfinite(v)) v = 0; /* JSON has no infinity */
  cli_format_cost(buf, sizeof buf, v);
  fputs(buf, out);
}

bool cli_trace_begin(cli_trace *t, const char *path, const char *map_label, const astar_grid *grid,
                     astar_point start, astar_point goal, const astar_options *opt,
                     const char *algo) {
  static const char *const reopen_names[] = {"auto", "always", "never"};
  memset(t, 0, sizeof *t);
  t->path = path;
  t->to_stdout = strcmp(path, "-") == 0;
  if (!t->to_stdout && !cli_out_open(&t->file, path)) return false;
  t->out = t->to_stdout ? stdout : t->file.f;
  FILE *o = t->out;
  if (!t->to_stdout) setvbuf(o, NULL, _IOFBF, 1 << 20); /* millions of short lines */
  fputs("{\"map\":", o);
  cli_json_string(o, map_label);
  fprintf(o, ",\"width\":%d,\"height\":%d,\"start\":[%d,%d],\"goal\":[%d,%d]",
          (int)astar_grid_width(grid), (int)astar_grid_height(grid), (int)start.x, (int)start.y,
          (int)goal.x, (int)goal.y);
  fprintf(o, ",\"options\":{\"algorithm\":\"%s\",\"moves\":%d,\"corner\":\"%s\"", algo, opt->moves,
          cli_corner_name(opt->corner));
  fputs(",\"straight_cost\":", o);
  put_cost(o, opt->straight_cost);
  fputs(",\"diagonal_cost\":", o);
  put_cost(o, opt->diagonal_cost);
  fprintf(o, ",\"heuristic\":\"%s\",\"weight\":", cli_heuristic_name(opt->heuristic));
  put_cost(o, opt->weight);
  fprintf(o, ",\"tie\":\"%s\",\"reopen\":\"%s\",\"max_expansions\":%llu", cli_tie_name(opt->tie),
          reopen_names[(unsigned)opt->reopen < 3 ? opt->reopen : 0],
          (unsigned long long)opt->max_expansions);
  fputs(",\"terrain_scale\":", o);
  put_cost(o, opt->terrain_scale);
  fputs(",\"turn_penalty\":", o);
  put_cost(o, opt->turn_penalty);
  fputs("}}\n", o);
  return true;
}

void cli_trace_event(void *ctx, const astar_event *e) {
  cli_trace *t = ctx;
  FILE *o = t->out;
  const unsigned n = (unsigned)(sizeof event_names / sizeof event_names[0]);
  unsigned type = (unsigned)e->type < n ? (unsigned)e->type : 0;
  fprintf(o, "{\"event\":\"%s\",\"x\":%d,\"y\":%d,\"px\":%d,\"py\":%d,\"g\":", event_names[type],
          (int)e->cell.x, (int)e->cell.y, (int)e->parent.x, (int)e->parent.y);
  put_cost(o, e->g);
  fputs(",\"h\":", o);
  put_cost(o, e->h);
  fputs(",\"f\":", o);
  put_cost(o, e->f);
  fprintf(o, ",\"expanded\":%llu", (unsigned long long)e->expanded);
  if (e->direction >= 0) fprintf(o, ",\"dir\":%d", e->direction);
  fputs("}\n", o);
  t->events++;
}

bool cli_trace_end(cli_trace *t, const cli_solution *sol) {
  FILE *o = t->out;
  fprintf(o, "{\"status\":\"%s\",\"cost\":", cli_status_key(sol->status));
  put_cost(o, sol->status == ASTAR_OK ? sol->result.cost : 0);
  fprintf(o, ",\"length\":%zu,\"path\":[", sol->len);
  for (size_t i = 0; i < sol->len; i++)
    fprintf(o, "%s[%d,%d]", i ? "," : "", (int)sol->path[i].x, (int)sol->path[i].y);
  const astar_stats *st = &sol->result.stats;
  fprintf(o, "],\"expanded\":%llu,\"generated\":%llu,\"reopened\":%llu,\"max_open\":%llu}\n",
          (unsigned long long)st->expanded, (unsigned long long)st->generated,
          (unsigned long long)st->reopened, (unsigned long long)st->max_open);
  t->out = NULL;
  if (!t->to_stdout) return cli_out_close(&t->file);
  const bool ok = fflush(o) == 0 && !ferror(o);
  if (!ok) cli_error("(stdout): %s", strerror(errno ? errno : EIO));
  return ok;
}

void cli_trace_abort(cli_trace *t) {
  if (t->out && !t->to_stdout) cli_out_abort(&t->file);
  t->out = NULL;
}
