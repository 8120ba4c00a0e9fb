/*
** options.c -- command-line parsing shared by every command: the argv
** iterator, strict number parsing, one-line usage errors and the search
** options common to run, solve and bench.
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

/* ---- argv iterator --------------------------------------------------------- */

void cli_parser_init(cli_parser *p, int argc, char **argv, const char *command) {
  memset(p, 0, sizeof *p);
  p->argc = argc;
  p->argv = argv;
  p->index = 1; /* argv[0] is the command name */
  p->command = command;
}

/* "-5" and "-0.5" read as numbers, not options, so that a bad coordinate gets
** a message about the number instead of "unknown option". */
static bool looks_negative_number(const char *s) {
  return s[0] == '-' &&
         (isdigit((unsigned char)s[1]) || (s[1] == '.' && isdigit((unsigned char)s[2])));
}

int cli_next(cli_parser *p) {
  p->inline_value = NULL;
  p->name[0] = '\0';
  if (p->index >= p->argc) return CLI_ARG_END;
  const char *a = p->argv[p->index++];
  p->arg = a;
  if (p->options_done || a[0] != '-' || a[1] == '\0' || looks_negative_number(a))
    return CLI_ARG_POSITIONAL;
  if (strcmp(a, "--") == 0) {
    p->options_done = true;
    return cli_next(p);
  }
  const char *eq = strchr(a, '=');
  size_t n = eq ? (size_t)(eq - a) : strlen(a);
  if (n >= sizeof p->name) n = sizeof p->name - 1; /* overlong: stays unknown */
  memcpy(p->name, a, n);
  p->name[n] = '\0';
  if (eq) p->inline_value = eq + 1;
  return CLI_ARG_OPTION;
}

bool cli_is(const cli_parser *p, const char *name, const char *alias) {
  return strcmp(p->name, name) == 0 || (alias && strcmp(p->name, alias) == 0);
}

const char *cli_value(cli_parser *p) {
  if (p->inline_value) return p->inline_value;
  if (p->index >= p->argc) {
    cli_error("%s: missing value", p->name);
    return NULL;
  }
  return p->argv[p->index++];
}

bool cli_flag(const cli_parser *p) {
  if (!p->inline_value) return true;
  cli_error("%s: takes no value, got '%s'", p->name, p->inline_value);
  return false;
}

int cli_unknown_option(const cli_parser *p) {
  return cli_usage_error("%s: unknown option '%s' (see 'astar %s --help')", p->command, p->arg,
                         p->command);
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

bool cli_parse_uint(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (!isdigit((unsigned char)text[0]) || *end != '\0' || errno == ERANGE || v < min || v > max) {
    cli_error("%s: expected an integer from %llu to %llu, got '%s'", what, (unsigned long long)min,
              (unsigned long long)max, text);
    return false;
  }
  *out = (uint64_t)v;
  return true;
}

bool cli_parse_u64(const char *what, const char *text, uint64_t *out) {
  return cli_parse_uint(what, text, 0, UINT64_MAX, out);
}

bool cli_parse_double(const char *what, const char *text, double min, bool min_exclusive,
                      double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  bool ok = end != text && *end == '\0' && !isspace((unsigned char)text[0]) && isfinite(v) &&
            (min_exclusive ? v > min : v >= min) && v <= ASTAR_OPTION_MAX;
  if (!ok) {
    cli_error("%s: expected a number %s %g and <= %g, got '%s'", what,
              min_exclusive ? ">" : ">=", min, ASTAR_OPTION_MAX, text);
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

void cli_cells_error(const char *what, const char *form, const char *text, const char *extra) {
  if (!form)
    cli_error("%s: expected a cell coordinate, an integer from 0 to %d, got '%s'", what,
              CLI_CELL_MAX, text);
  else
    cli_error("%s: expected %s with cell coordinates, integers from 0 to %d%s%s, got '%s'", what,
              form, CLI_CELL_MAX, extra ? ", and " : "", extra ? extra : "", text);
}

bool cli_parse_cells(const char *what, const char *form, const char *text, int n, int32_t *out) {
  if (cli_scan_cells(text, n, out, NULL)) return true;
  cli_cells_error(what, n == 1 ? NULL : form, text, NULL);
  return false;
}

bool cli_parse_choice(const char *what, const char *text, const char *const *names, int *out) {
  for (int i = 0; names[i]; i++) {
    if (strcmp(text, names[i]) == 0) {
      *out = i;
      return true;
    }
  }
  char list[256] = "";
  size_t used = 0;
  for (int i = 0; names[i] && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? "|" : "", names[i]);
  cli_error("%s: expected one of %s, got '%s'", what, list, text);
  return false;
}

/* ---- shared search options ------------------------------------------------ */

/* Indexed by the enum values of astar/search.h. */
static const char *const corner_names[] = {"no-cut", "always", "one-side", "never", NULL};
static const char *const heuristic_names[] = {"auto",      "octile", "manhattan", "chebyshev",
                                              "euclidean", "zero",   NULL};
static const char *const tie_names[] = {"larger-g", "newest", "cross", NULL};
static const char *const reopen_names[] = {"auto", "always", "never", NULL};
static const char *const open_names[] = {"auto", "heap4", "heap2", "bucket", NULL};
static const char *const unknown_names[] = {"passable", "blocked", "cost", NULL};

/* The movement rules: the options that decide a map's moves and their
** costs, and so what a precomputed file is valid for (precompute takes
** these alone). */
#define RULES_HELP                                                                                 \
  "  --moves 4|8            neighbours per cell (default 8)\n"                                     \
  "  --corner RULE          diagonal past blocked side cells: no-cut (default,\n"                  \
  "                         Moving AI rule), always, one-side, never (no diagonals)\n"             \
  "  --costs S,D            straight and diagonal move costs (default 1,1.41421356...)\n"

const char cli_rules_options_help[] = RULES_HELP;

const char cli_search_options_help[] =
    "Search options:\n" RULES_HELP
    "  --heuristic H          auto (default: octile, or manhattan with 4 moves),\n"
    "                         octile, manhattan, chebyshev, euclidean, zero (Dijkstra)\n"
    "  --weight W             multiply h by W >= 0 (default 1; > 1 trades length for speed)\n"
    "  --tie T                equal-f order: larger-g (default), newest, cross\n"
    "  --reopen R             reopen closed cells: auto (default), always, never\n"
    "  --open S               open list: auto (default), heap4, heap2, bucket (same\n"
    "                         paths, different speed)\n"
    "  --max-expansions N     give up after N expansions (default 0 = no limit)\n"
    "  --partial              without a full path, return the path to the best node\n"
    "                         found (status 'partial')\n"
    "  --terrain-scale A      count a terrain factor t as 1 + A*(t-1), A in [0,1]\n"
    "                         (default 1; 0 ignores terrain: a quick first draft)\n"
    "  --turn-penalty P       extra cost P for every change of direction (default 0)\n"
    "  --heuristic-floor F    the heuristic assumes terrain factor F (default 0: the\n"
    "                         map's cheapest, exact); F above it is faster on maps\n"
    "                         with a few cheap cells, cost <= F/cheapest x optimal\n"
    "  --unknown U            with fog of war: passable (default), blocked, cost\n"
    "  --unknown-cost C       entry factor of unknown cells with --unknown cost (default 2)\n";

static bool parse_costs(const char *what, const char *text, astar_options *opt) {
  const char *comma = strchr(text, ',');
  char first[64];
  size_t n = comma ? (size_t)(comma - text) : 0;
  if (!comma || n >= sizeof first) {
    cli_error("%s: expected two numbers S,D such as 10,14, got '%s'", what, text);
    return false;
  }
  memcpy(first, text, n);
  first[n] = '\0';
  double s, d;
  if (!cli_parse_double(what, first, 0, true, &s)) return false;
  if (!cli_parse_double(what, comma + 1, 0, true, &d)) return false;
  opt->straight_cost = s;
  opt->diagonal_cost = d;
  return true;
}

int cli_rules_option(cli_parser *p, astar_options *opt) {
  const char *v;
  int choice;
  const char *name = p->name;
  if (cli_is(p, "--moves", NULL)) {
    if (!(v = cli_value(p))) return -1;
    if (strcmp(v, "4") != 0 && strcmp(v, "8") != 0) {
      cli_error("%s: expected 4 or 8, got '%s'", name, v);
      return -1;
    }
    opt->moves = v[0] - '0';
  } else if (cli_is(p, "--corner", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_choice(name, v, corner_names, &choice)) return -1;
    opt->corner = (astar_corner)choice;
  } else if (cli_is(p, "--costs", NULL)) {
    if (!(v = cli_value(p)) || !parse_costs(name, v, opt)) return -1;
  } else {
    return 0;
  }
  return 1;
}

int cli_search_option(cli_parser *p, astar_options *opt) {
  const char *v;
  int choice;
  const char *name = p->name;
  const int rules = cli_rules_option(p, opt);
  if (rules != 0) return rules;
  if (cli_is(p, "--heuristic", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_choice(name, v, heuristic_names, &choice)) return -1;
    opt->heuristic = (astar_heuristic)choice;
  } else if (cli_is(p, "--weight", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_double(name, v, 0, false, &opt->weight)) return -1;
  } else if (cli_is(p, "--tie", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_choice(name, v, tie_names, &choice)) return -1;
    opt->tie = (astar_tie)choice;
  } else if (cli_is(p, "--reopen", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_choice(name, v, reopen_names, &choice)) return -1;
    opt->reopen = (astar_reopen)choice;
  } else if (cli_is(p, "--open", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_choice(name, v, open_names, &choice)) return -1;
    opt->open_set = (astar_open_set)choice;
  } else if (cli_is(p, "--partial", NULL)) {
    if (!cli_flag(p)) return -1;
    opt->partial = true;
  } else if (cli_is(p, "--terrain-scale", NULL)) {
    double a;
    if (!(v = cli_value(p)) || !cli_parse_double(name, v, 0, false, &a)) return -1;
    if (a > 1.0) {
      cli_error("%s: expected a number in [0,1], got '%s'", name, v);
      return -1;
    }
    opt->terrain_scale = a;
  } else if (cli_is(p, "--turn-penalty", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_double(name, v, 0, false, &opt->turn_penalty)) return -1;
  } else if (cli_is(p, "--heuristic-floor", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_double(name, v, 0, false, &opt->heuristic_floor))
      return -1;
  } else if (cli_is(p, "--unknown", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_choice(name, v, unknown_names, &choice)) return -1;
    opt->unknown = (astar_unknown)choice;
  } else if (cli_is(p, "--unknown-cost", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_double(name, v, 0, true, &opt->unknown_cost)) return -1;
  } else if (cli_is(p, "--max-expansions", NULL)) {
    if (!(v = cli_value(p)) || !cli_parse_u64(name, v, &opt->max_expansions)) return -1;
  } else {
    return 0;
  }
  return 1;
}

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
