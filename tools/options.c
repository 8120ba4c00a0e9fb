/*
** options.c -- what every command shares about its command line: one-line
** usage errors, strict integer and cell parsing for positionals, and the
** tables (opts.h) of the search options and the movement rules.
*/
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- messages ------------------------------------------------------------ */

/* What the bad case is decides the status, not the command: the same
** mistake exits the same way everywhere. The command line's own mistakes
** (a cell outside the map among them) are 2; what the files, the map or
** the search turned out to hold is 1. tests/cli/exit_tests.sh checks this
** table across the commands and that the README's copy is this text. */
const char cli_exit_status_help[] =
    "Exit status (the same for every command):\n"
    "  0  success: the command did what it was asked -- solve found a path,\n"
    "     bench ran its queries (with --check: and all matched), render wrote\n"
    "     its pictures (whatever the search found), precompute and convert\n"
    "     wrote their files, group's costs agreed, simulate's checks held\n"
    "  1  no path, or a failure at run time: an input file that cannot be read\n"
    "     or is malformed (the message names file, line and column), an output\n"
    "     that cannot be written, a start or goal on a blocked cell, a map the\n"
    "     algorithm cannot search (jps on terrain), a bench --check mismatch,\n"
    "     out of memory\n"
    "  2  usage error: an unknown command or option, a missing or bad argument\n"
    "     (the message names it and the accepted range), options that do not\n"
    "     go together or that the algorithm never supports (--algo cpd\n"
    "     --moves 4), a cell or node outside the map or graph (SX SY GX GY,\n"
    "     --goals, --region; S T of a graph)\n";

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("astar: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int cli_usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("astar: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return CLI_EXIT_USAGE;
}

/* ---- numbers ------------------------------------------------------------- */

/* Every rejected integer gets the same message, naming the whole accepted
** range: a value out of range and one that is no integer at all are told
** the same true thing. */
bool cli_parse_int(const char *what, const char *text, long min, long max, long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max ||
      isspace((unsigned char)text[0])) {
    cli_error("%s: expected an integer from %ld to %ld, got '%s'", what, min, max, text);
    return false;
  }
  *out = v;
  return true;
}

/* Digits only, so that a sign, a space, a fraction or an exponent fails
** before strtol could accept part of it; the range check comes before any
** conversion to int32_t. */
bool cli_scan_cells(const char *text, int n, int32_t *out, const char **end) {
  const char *p = text;
  for (int i = 0; i < n; i++) {
    if (i > 0 && *p++ != ',') return false;
    if (!isdigit((unsigned char)*p)) return false;
    char *stop;
    errno = 0;
    const long v = strtol(p, &stop, 10);
    if (errno == ERANGE || v > CLI_CELL_MAX) return false;
    out[i] = (int32_t)v;
    p = stop;
  }
  if (end) {
    *end = p;
    return true;
  }
  return *p == '\0';
}

bool cli_parse_cells(const char *what, const char *form, const char *text, int n, int32_t *out) {
  if (cli_scan_cells(text, n, out, NULL)) return true;
  if (n == 1)
    cli_error("%s: expected a cell coordinate, an integer from 0 to %d, got '%s'", what,
              CLI_CELL_MAX, text);
  else
    cli_error("%s: expected %s with cell coordinates, integers from 0 to %d, got '%s'", what, form,
              CLI_CELL_MAX, text);
  return false;
}

/* ---- the search options and the movement rules (opts.h) ---------------------------- */

/* Indexed by the enum values of astar/search.h. */
static const char *const corner_names[] = {"no-cut", "always", "one-side", "never", NULL};
static const char *const heuristic_names[] = {"auto",      "octile", "manhattan", "chebyshev",
                                              "euclidean", "zero",   NULL};
static const char *const tie_names[] = {"larger-g", "newest", "cross", NULL};
static const char *const reopen_names[] = {"auto", "always", "never", NULL};
static const char *const open_names[] = {"auto", "heap4", "heap2", "bucket", NULL};
static const char *const unknown_names[] = {"passable", "blocked", "cost", NULL};

static const char *const moves_names[] = {"4", "8", NULL};
static const int moves_values[] = {4, 8};

static void costs_range(char *buf, size_t size) {
  snprintf(buf, size, "two numbers S,D such as 10,14, each > 0 and <= %g", ASTAR_OPTION_MAX);
}

/* --costs S,D: dest is the whole astar_options. */
static bool costs_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  const char *comma = strchr(text, ',');
  char first[64];
  const size_t n = comma ? (size_t)(comma - text) : 0;
  if (!comma || n == 0 || n >= sizeof first) return false;
  memcpy(first, text, n);
  first[n] = '\0';
  double v[2];
  const char *part[2] = {first, comma + 1};
  for (int i = 0; i < 2; i++) {
    char *end;
    if (!*part[i] || isspace((unsigned char)*part[i])) return false;
    v[i] = strtod(part[i], &end);
    if (end == part[i] || *end != '\0' || !isfinite(v[i]) || v[i] <= 0 || v[i] > ASTAR_OPTION_MAX)
      return false;
  }
  astar_options *opt = dest;
  opt->straight_cost = v[0];
  opt->diagonal_cost = v[1];
  return true;
}

static const cli_opt rules_rows[] = {
    {.name = "--moves",
     .meta = "4|8",
     .kind = CLI_CHOICE,
     CLI_AT(astar_options, moves),
     .names = moves_names,
     .values = moves_values,
     .help = "neighbours per cell (default 8)"},
    {.name = "--corner",
     .meta = "RULE",
     .kind = CLI_CHOICE,
     CLI_AT(astar_options, corner),
     .names = corner_names,
     .help = "diagonal past blocked side cells: no-cut (default,\n"
             "Moving AI rule), always, one-side, never (no diagonals)"},
    {.name = "--costs",
     .meta = "S,D",
     .kind = CLI_CUSTOM,
     .off = 0,
     .size = sizeof(astar_options),
     .parse = costs_parse,
     .range_fn = costs_range,
     .sample = "10,14",
     .bad = "10",
     .help = "straight and diagonal move costs (default 1,1.41421356...)"},
};

const cli_group cli_rules_group = CLI_ROWS(rules_rows);

static const cli_opt search_rows[] = {
    {.name = "--heuristic",
     .meta = "H",
     .kind = CLI_CHOICE,
     CLI_AT(astar_options, heuristic),
     .names = heuristic_names,
     .help = "auto (default: octile, or manhattan with 4 moves),\n"
             "octile, manhattan, chebyshev, euclidean, zero (Dijkstra)"},
    {.name = "--weight",
     .meta = "W",
     .kind = CLI_NUMBER,
     CLI_AT(astar_options, weight),
     .help = "multiply h by W >= 0 (default 1; > 1 trades length for speed)"},
    {.name = "--tie",
     .meta = "T",
     .kind = CLI_CHOICE,
     CLI_AT(astar_options, tie),
     .names = tie_names,
     .help = "equal-f order: larger-g (default), newest, cross"},
    {.name = "--reopen",
     .meta = "R",
     .kind = CLI_CHOICE,
     CLI_AT(astar_options, reopen),
     .names = reopen_names,
     .help = "reopen closed cells: auto (default), always, never"},
    {.name = "--open",
     .meta = "S",
     .kind = CLI_CHOICE,
     CLI_AT(astar_options, open_set),
     .names = open_names,
     .help = "open list: auto (default), heap4, heap2, bucket (same\n"
             "paths, different speed)"},
    {.name = "--max-expansions",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(astar_options, max_expansions),
     .max = UINT64_MAX,
     .help = "give up after N expansions (default 0 = no limit)"},
    {.name = "--partial",
     .kind = CLI_FLAG,
     CLI_AT(astar_options, partial),
     .help = "without a full path, return the path to the best node\n"
             "found (status 'partial')"},
    {.name = "--terrain-scale",
     .meta = "A",
     .kind = CLI_NUMBER,
     CLI_AT(astar_options, terrain_scale),
     .dmax = 1,
     .help = "count a terrain factor t as 1 + A*(t-1), A in [0,1]\n"
             "(default 1; 0 ignores terrain: a quick first draft)"},
    {.name = "--turn-penalty",
     .meta = "P",
     .kind = CLI_NUMBER,
     CLI_AT(astar_options, turn_penalty),
     .help = "extra cost P for every change of direction (default 0)"},
    {.name = "--heuristic-floor",
     .meta = "F",
     .kind = CLI_NUMBER,
     CLI_AT(astar_options, heuristic_floor),
     .help = "the heuristic assumes terrain factor F (default 0: the\n"
             "map's cheapest, exact); F above it is faster on maps\n"
             "with a few cheap cells, cost <= F/cheapest x optimal"},
    {.name = "--unknown",
     .meta = "U",
     .kind = CLI_CHOICE,
     CLI_AT(astar_options, unknown),
     .names = unknown_names,
     .help = "with fog of war: passable (default), blocked, cost"},
    {.name = "--unknown-cost",
     .meta = "C",
     .kind = CLI_NUMBER,
     CLI_AT(astar_options, unknown_cost),
     .flags = CLI_EXCL_MIN,
     .help = "entry factor of unknown cells with --unknown cost (default 2)"},
};

const cli_group cli_search_group = CLI_ROWS(search_rows);

const char *cli_corner_name(astar_corner c) {
  return (unsigned)c < 4 ? corner_names[c] : "?";
}

const char *cli_heuristic_name(astar_heuristic h) {
  return (unsigned)h < 6 ? heuristic_names[h] : (h == ASTAR_H_CALLBACK ? "callback" : "?");
}

const char *cli_tie_name(astar_tie t) {
  return (unsigned)t < 3 ? tie_names[t] : "?";
}

/* The shortest text strtod reads back as exactly v ("10", not "1e+01"). */
static void exact_number(char *buf, size_t size, double v) {
  if (v == floor(v) && fabs(v) < 1e15) {
    snprintf(buf, size, "%.0f", v);
    return;
  }
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(buf, size, "%.*g", digits, v);
    if (strtod(buf, NULL) == v) return;
  }
}

void cli_rules_text(char *buf, size_t size, const astar_options *opt, bool exact) {
  char s[40], d[40];
  if (exact) {
    exact_number(s, sizeof s, opt->straight_cost);
    exact_number(d, sizeof d, opt->diagonal_cost);
  } else {
    cli_format_cost(s, sizeof s, opt->straight_cost);
    cli_format_cost(d, sizeof d, opt->diagonal_cost);
  }
  if (opt->moves == 4)
    snprintf(buf, size, "4 moves, cost %s", s);
  else
    snprintf(buf, size, "%d moves, corners %s, costs %s/%s", opt->moves,
             cli_corner_name(opt->corner), s, d);
}

void cli_rules_args(char *buf, size_t size, const astar_options *opt) {
  astar_options def;
  astar_options_init(&def);
  size_t used = 0;
  buf[0] = '\0';
  if (opt->moves != def.moves && used < size)
    used += (size_t)snprintf(buf + used, size - used, " --moves %d", opt->moves);
  if (opt->moves == 8 && opt->corner != def.corner && used < size)
    used += (size_t)snprintf(buf + used, size - used, " --corner %s", cli_corner_name(opt->corner));
  const bool diagonal = opt->moves == 8 && opt->diagonal_cost != def.diagonal_cost;
  if ((opt->straight_cost != def.straight_cost || diagonal) && used < size) {
    char s[40], d[40];
    exact_number(s, sizeof s, opt->straight_cost);
    exact_number(d, sizeof d, opt->diagonal_cost);
    snprintf(buf + used, size - used, " --costs %s,%s", s, d);
  }
}

void cli_describe_options(FILE *out, const astar_options *opt) {
  char rules[128];
  cli_rules_text(rules, sizeof rules, opt, false);
  fputs(rules, out);
  fprintf(out, ", heuristic %s", cli_heuristic_name(opt->heuristic));
  if (opt->weight != 1) fprintf(out, " x %g", opt->weight);
  fprintf(out, ", ties %s", cli_tie_name(opt->tie));
  if (opt->reopen != ASTAR_REOPEN_AUTO)
    fprintf(out, ", reopen %s", reopen_names[(unsigned)opt->reopen < 3 ? opt->reopen : 0]);
  if (opt->max_expansions)
    fprintf(out, ", max %llu expansions", (unsigned long long)opt->max_expansions);
  if (opt->open_set != ASTAR_OPEN_AUTO)
    fprintf(out, ", open list %s", open_names[(unsigned)opt->open_set < 4 ? opt->open_set : 0]);
}
