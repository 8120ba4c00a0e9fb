/*
** opts.c -- the option tables at work (opts.h): reading a command line by
** its command's spec, the messages, the --help pages and --dump-options.
**
** A command line is read twice, the same way each time (no copy of it is
** kept, so any number of arguments costs nothing): first to find the
** unknown names, --help, the positionals and which options were given, from
** which the command decides the kind; then to apply every option with the
** row of that kind. Whether a name takes a value is the same for all its
** rows (checked by --dump-options), so both readings split argv alike.
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- rows ---------------------------------------------------------------------- */

/* Row `index` of the spec (sections in order, rows in order), its section. */
static const cli_opt *row_at(const cli_spec *spec, int index, const cli_section **section) {
  for (size_t s = 0; s < spec->nsections; s++) {
    const cli_group *g = spec->sections[s].group;
    if ((size_t)index < g->n) {
      if (section) *section = &spec->sections[s];
      return &g->rows[index];
    }
    index -= (int)g->n;
  }
  return NULL;
}

static int row_count(const cli_spec *spec) {
  int n = 0;
  for (size_t s = 0; s < spec->nsections; s++) n += (int)spec->sections[s].group->n;
  return n;
}

static unsigned all_kinds(const cli_spec *spec) {
  return spec->nkinds >= CLI_MAX_KINDS ? ~0u : CLI_KIND(spec->nkinds) - 1u;
}

/* The kinds a row applies to: its own, else its section's, else all. */
static unsigned row_kinds(const cli_spec *spec, const cli_section *s, const cli_opt *o) {
  return o->kinds ? o->kinds : s->kinds ? s->kinds : all_kinds(spec);
}

static bool takes_value(const cli_opt *o) {
  return o->kind != CLI_FLAG && o->kind != CLI_HELP;
}

static bool named(const cli_opt *o, const char *name) {
  if (!name) return false;
  return (o->name && strcmp(o->name, name) == 0) || (o->alias && strcmp(o->alias, name) == 0);
}

/* The first row called `name` (any kind), or -1. */
static int first_named(const cli_spec *spec, const char *name) {
  const int n = row_count(spec);
  for (int i = 0; i < n; i++)
    if (named(row_at(spec, i, NULL), name)) return i;
  return -1;
}

/* The row called `name` for `kind`, or -1. */
static int row_for_kind(const cli_spec *spec, const char *name, int kind) {
  const int n = row_count(spec);
  for (int i = 0; i < n; i++) {
    const cli_section *s = spec->sections;
    const cli_opt *o = row_at(spec, i, &s);
    if (named(o, name) && (row_kinds(spec, s, o) & CLI_KIND(kind))) return i;
  }
  return -1;
}

/* ---- values ---------------------------------------------------------------------- */

void cli_opt_range(const cli_opt *o, char *buf, size_t size) {
  switch (o->kind) {
  case CLI_INT:
    snprintf(buf, size, "an integer from %llu to %llu", (unsigned long long)o->min,
             (unsigned long long)o->max);
    break;
  case CLI_NUMBER:
    snprintf(buf, size, "a number %s %g and <= %g", (o->flags & CLI_EXCL_MIN) ? ">" : ">=", o->dmin,
             o->dmax > 0 ? o->dmax : ASTAR_OPTION_MAX);
    break;
  case CLI_CHOICE: {
    size_t used = (size_t)snprintf(buf, size, "one of ");
    for (int i = 0; o->names[i] && used < size; i++)
      used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "|" : "", o->names[i]);
    break;
  }
  case CLI_CELLS:
    if (o->ncells == 1)
      snprintf(buf, size, "a cell coordinate, an integer from 0 to %d", CLI_CELL_MAX);
    else
      snprintf(buf, size, "%s with cell coordinates, integers from 0 to %d", o->form, CLI_CELL_MAX);
    break;
  case CLI_CUSTOM:
    if (o->range_fn)
      o->range_fn(buf, size);
    else
      snprintf(buf, size, "%s", o->range ? o->range : "?");
    break;
  case CLI_TEXT:
    snprintf(buf, size, "%s", o->range ? o->range : o->meta ? o->meta : "a value");
    break;
  default:
    snprintf(buf, size, "no value");
  }
}

/* Store v in the integer field of `size` bytes at p (in range: the caller's
** rows give fields wide enough; a negative choice value wraps to the same
** bits). */
static void put_int(void *p, size_t size, long long v) {
  switch (size) {
  case 1: {
    const uint8_t t = (uint8_t)v;
    memcpy(p, &t, 1);
    break;
  }
  case 2: {
    const uint16_t t = (uint16_t)v;
    memcpy(p, &t, 2);
    break;
  }
  case 4: {
    const uint32_t t = (uint32_t)v;
    memcpy(p, &t, 4);
    break;
  }
  default: {
    const uint64_t t = (uint64_t)v;
    memcpy(p, &t, 8);
  }
  }
}

/* Convert `text` by the row into dest. False, nothing stored, when it is
** not a value the row takes. */
static bool convert(const cli_opt *o, const char *text, void *dest) {
  switch (o->kind) {
  case CLI_INT: {
    /* Digits only: a sign, a space, a fraction or an exponent fails before
    ** strtoull could read part of it. */
    if (!isdigit((unsigned char)text[0])) return false;
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < o->min || v > o->max) return false;
    if (o->size == 8) {
      const uint64_t t = (uint64_t)v;
      memcpy(dest, &t, 8);
    } else {
      put_int(dest, o->size, (long long)v);
    }
    return true;
  }
  case CLI_NUMBER: {
    if (text[0] == '\0' || isspace((unsigned char)text[0])) return false;
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    const double max = o->dmax > 0 ? o->dmax : ASTAR_OPTION_MAX;
    if (end == text || *end != '\0' || !isfinite(v) ||
        ((o->flags & CLI_EXCL_MIN) ? v <= o->dmin : v < o->dmin) || v > max)
      return false;
    if (o->size == sizeof(float)) {
      const float f = (float)v;
      memcpy(dest, &f, sizeof f);
    } else {
      memcpy(dest, &v, sizeof v);
    }
    return true;
  }
  case CLI_CHOICE:
    for (int i = 0; o->names[i]; i++) {
      if (strcmp(text, o->names[i]) == 0) {
        put_int(dest, o->size, o->values ? o->values[i] : i);
        return true;
      }
    }
    return false;
  case CLI_TEXT:
    memcpy(dest, &text, sizeof text);
    return true;
  case CLI_CELLS: {
    int32_t cells[8];
    if (o->ncells > 8 || !cli_scan_cells(text, o->ncells, cells, NULL)) return false;
    memcpy(dest, cells, (size_t)o->ncells * sizeof cells[0]);
    return true;
  }
  case CLI_CUSTOM:
    return o->parse(o, text, dest);
  case CLI_FLAG:
    put_int(dest, o->size, o->set == CLI_OFF ? 0 : o->set ? o->set : 1);
    return true;
  default:
    return true;
  }
}

/* ---- reading argv ---------------------------------------------------------------- */

enum { T_END, T_POS, T_OPT };
enum { ROW_UNKNOWN = -1, ROW_DUMP = -2 };

typedef struct scan {
  const cli_spec *spec;
  int argc;
  char **argv;
  int next;  /* argv index */
  bool done; /* "--" seen */
} scan;

typedef struct token {
  int type;
  const char *arg;   /* the argument as given */
  char name[64];     /* the option's name, before any '=' */
  const char *value; /* inline or the next argument; NULL: none (a flag) or missing */
  bool has_inline;   /* "--name=value" */
  int row;           /* the first row of the name, ROW_UNKNOWN or ROW_DUMP */
} token;

/* "-5" and "-0.5" are positionals, not options, so that a bad coordinate
** gets a message about the number rather than "unknown option". */
static bool negative_number(const char *s) {
  return s[0] == '-' &&
         (isdigit((unsigned char)s[1]) || (s[1] == '.' && isdigit((unsigned char)s[2])));
}

static int next_token(scan *sc, token *t) {
  memset(t, 0, sizeof *t);
  for (;;) {
    if (sc->next >= sc->argc) return t->type = T_END;
    const char *a = sc->argv[sc->next++];
    t->arg = a;
    if (sc->done || a[0] != '-' || a[1] == '\0' || negative_number(a)) return t->type = T_POS;
    if (strcmp(a, "--") == 0) {
      sc->done = true;
      continue;
    }
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    if (n >= sizeof t->name) n = sizeof t->name - 1; /* overlong: stays unknown */
    memcpy(t->name, a, n);
    t->name[n] = '\0';
    if (eq) {
      t->value = eq + 1;
      t->has_inline = true;
    }
    if (strcmp(t->name, "--dump-options") == 0) {
      t->row = ROW_DUMP;
    } else {
      t->row = first_named(sc->spec, t->name);
      if (t->row >= 0 && !eq && takes_value(row_at(sc->spec, t->row, NULL)) && sc->next < sc->argc)
        t->value = sc->argv[sc->next++];
    }
    return t->type = T_OPT;
  }
}

/* ---- messages ---------------------------------------------------------------------- */

/* Edit distance with transpositions (optimal string alignment), for the
** closest name to a mistyped one. */
static size_t distance(const char *a, const char *b) {
  const size_t n = strlen(a), m = strlen(b);
  if (n > 62 || m > 62) return 99;
  size_t d[64][64];
  for (size_t i = 0; i <= n; i++) d[i][0] = i;
  for (size_t j = 0; j <= m; j++) d[0][j] = j;
  for (size_t i = 1; i <= n; i++) {
    for (size_t j = 1; j <= m; j++) {
      const size_t cost = a[i - 1] != b[j - 1];
      size_t v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  }
  return d[n][m];
}

/* The option name closest to `typed`, when it is close enough to be what
** was meant: a few letters off (about one in five), or the start of a single
** name. NULL otherwise. */
static const char *closest(const cli_spec *spec, const char *typed) {
  const char *best = NULL, *prefix_of = NULL;
  size_t best_d = (size_t)-1;
  int prefixes = 0;
  const size_t len = strlen(typed);
  const int n = row_count(spec);
  for (int i = 0; i < n; i++) {
    const cli_opt *o = row_at(spec, i, NULL);
    if (first_named(spec, o->name) != i) continue; /* a name of several kinds: once */
    for (int k = 0; k < 2; k++) {
      const char *name = k ? o->alias : o->name;
      if (!name) continue;
      const size_t d = distance(typed, name);
      if (d < best_d) {
        best_d = d;
        best = name;
      }
      if (len >= 4 && strncmp(name, typed, len) == 0) {
        prefix_of = name;
        prefixes++;
      }
    }
  }
  const size_t letters = len > 2 ? len - 2 : len;
  if (best && best_d <= 1 + letters / 5) return best;
  return prefixes == 1 ? prefix_of : NULL;
}

static int unknown_option(const cli_spec *spec, const token *t) {
  const char *near = closest(spec, t->name);
  if (near)
    return cli_usage_error("%s: unknown option '%s'; did you mean %s? (see 'astar %s --help')",
                           spec->command, t->arg, near, spec->command);
  return cli_usage_error("%s: unknown option '%s' (see 'astar %s --help')", spec->command, t->arg,
                         spec->command);
}

/* "square maps" or "the request queue and units walking ..." */
static void kind_labels(const cli_spec *spec, unsigned kinds, char *buf, size_t size) {
  size_t used = 0, count = 0, total = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < spec->nkinds; k++) total += (kinds & CLI_KIND(k)) != 0;
  for (size_t k = 0; k < spec->nkinds && used < size; k++) {
    if (!(kinds & CLI_KIND(k))) continue;
    count++;
    const char *sep = count == 1 ? "" : count == total ? " and " : ", ";
    used += (size_t)snprintf(buf + used, size - used, "%s%s", sep, spec->kinds[k].label);
  }
}

static int other_kind(const cli_spec *spec, const token *t, int kind) {
  unsigned where = 0;
  const int n = row_count(spec);
  for (int i = 0; i < n; i++) {
    const cli_section *s = spec->sections;
    const cli_opt *o = row_at(spec, i, &s);
    if (named(o, t->name)) where |= row_kinds(spec, s, o);
  }
  char labels[512];
  kind_labels(spec, where, labels, sizeof labels);
  return cli_usage_error("%s: %s is an option of %s, not of %s (see '%s')", spec->command, t->name,
                         labels, spec->kinds[kind].label, spec->kinds[kind].hint);
}

/* ---- --help and --dump-options ------------------------------------------------------- */

#define HELP_COLUMN 25
#define HELP_WIDTH 80

/* A row's help text at HELP_COLUMN, broken into lines before HELP_WIDTH at
** a space or after a '|' (a long list of values): the tables hold the text,
** the layout is made here. */
static void put_wrapped(FILE *out, const char *line, size_t n, bool first) {
  const size_t room = HELP_WIDTH - HELP_COLUMN;
  do {
    size_t take = n;
    if (n > room) {
      take = 0;
      for (size_t i = 1; i <= room; i++)
        if (line[i - 1] == '|' || line[i] == ' ') take = i;
      if (take == 0) take = n; /* one long word: as it is */
    }
    if (!first) fprintf(out, "\n%*s", HELP_COLUMN, "");
    first = false;
    fwrite(line, 1, take, out);
    line += take;
    n -= take;
    while (n > 0 && *line == ' ') line++, n--;
  } while (n > 0);
}

static void print_row(FILE *out, const cli_opt *o) {
  char left[160];
  if (o->display)
    snprintf(left, sizeof left, "  %s", o->display);
  else
    snprintf(left, sizeof left, "  %s%s%s%s%s", o->alias && o->alias[1] != '-' ? o->alias : "",
             o->alias && o->alias[1] != '-' ? ", " : "", o->name, o->meta ? " " : "",
             o->meta ? o->meta : "");
  fputs(left, out);
  const size_t n = strlen(left);
  if (n < HELP_COLUMN - 1)
    fprintf(out, "%*s", (int)(HELP_COLUMN - n), "");
  else
    fprintf(out, "\n%*s", HELP_COLUMN, "");
  /* The help with %r and %v expanded, then laid out. */
  char text[2048];
  size_t used = 0;
  for (const char *p = o->help; *p && used + 1 < sizeof text; p++) {
    if (p[0] == '%' && (p[1] == 'r' || p[1] == 'v')) {
      /* %r: integers as MIN..MAX, the rest as their messages say it; %v:
      ** the values alone, "a|b|c" rather than "one of a|b|c". */
      char range[512];
      if (o->kind == CLI_INT)
        snprintf(range, sizeof range, "%llu..%llu", (unsigned long long)o->min,
                 (unsigned long long)o->max);
      else
        cli_opt_range(o, range, sizeof range);
      const bool values = p[1] == 'v' && strncmp(range, "one of ", 7) == 0;
      used += (size_t)snprintf(text + used, sizeof text - used, "%s", values ? range + 7 : range);
      if (used >= sizeof text) used = sizeof text - 1;
      p++;
    } else {
      text[used++] = *p == '\n' ? ' ' : *p; /* the text is laid out anew below */
    }
  }
  text[used] = '\0';
  put_wrapped(out, text, used, true);
  fputc('\n', out);
}

static bool row_shown(const cli_spec *spec, const cli_section *s, const cli_opt *o,
                      unsigned kinds) {
  return !s->hidden && o->help && !(o->flags & CLI_HIDDEN) && (row_kinds(spec, s, o) & kinds);
}

void cli_print_help(FILE *out, const cli_spec *spec, size_t page) {
  const cli_page *pg = &spec->pages[page];
  pg->intro(out);
  for (size_t s = 0; s < spec->nsections; s++) {
    const cli_section *sec = &spec->sections[s];
    bool any = false;
    for (size_t i = 0; i < sec->group->n && !any; i++)
      any = row_shown(spec, sec, &sec->group->rows[i], pg->kinds);
    if (!any) continue;
    if (sec->heading) fprintf(out, "\n%s\n", sec->heading);
    for (size_t i = 0; i < sec->group->n; i++)
      if (row_shown(spec, sec, &sec->group->rows[i], pg->kinds))
        print_row(out, &sec->group->rows[i]);
    if (sec->note) fputs(sec->note, out);
  }
  if (pg->outro) {
    fputc('\n', out);
    pg->outro(out);
  }
}

size_t cli_page_of(const cli_spec *spec, int kind) {
  for (size_t p = 0; p < spec->npages; p++)
    if (spec->pages[p].kinds & CLI_KIND(kind)) return p;
  return 0;
}

/* A value the row takes (sample) and one it refuses (bad), for the tests;
** "-" for none. */
static void samples(const cli_opt *o, char *good, char *bad, size_t size) {
  snprintf(good, size, "-");
  snprintf(bad, size, "-");
  switch (o->kind) {
  case CLI_INT:
    snprintf(good, size, "%llu", (unsigned long long)o->min);
    if (o->max < UINT64_MAX)
      snprintf(bad, size, "%llu", (unsigned long long)o->max + 1);
    else
      snprintf(bad, size, "18446744073709551616");
    break;
  case CLI_NUMBER:
    snprintf(good, size, "%g", (o->flags & CLI_EXCL_MIN) ? o->dmin + 1 : o->dmin);
    snprintf(bad, size, "%s", o->dmin >= 0 ? "-1" : "x");
    break;
  case CLI_CHOICE:
    snprintf(good, size, "%s", o->names[0]);
    snprintf(bad, size, "no-such-value");
    break;
  case CLI_CELLS:
    for (int i = 0, used = 0; i < o->ncells; i++)
      used += snprintf(good + used, size - (size_t)used, "%s0", i ? "," : "");
    snprintf(bad, size, "x");
    break;
  case CLI_CUSTOM:
    snprintf(bad, size, "x");
    break;
  case CLI_TEXT:
    snprintf(good, size, "x");
    break;
  default:
    break;
  }
  if (o->sample) snprintf(good, size, "%s", o->sample);
  if (o->bad) snprintf(bad, size, "%s", o->bad);
}

static const char *vkind_name(cli_vkind k) {
  static const char *const names[] = {"flag", "int",   "number", "choice",
                                      "text", "cells", "custom", "help"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* The spec's own consistency: what the parser and the tests rely on. */
static bool spec_ok(const cli_spec *spec) {
  const int n = row_count(spec);
  bool ok =
      n <= CLI_MAX_ROWS && spec->nkinds >= 1 && spec->nkinds <= CLI_MAX_KINDS && spec->npages >= 1;
  if (!ok) cli_error("%s: the option table is too large or has no kind or page", spec->command);
  for (int i = 0; i < n && i < CLI_MAX_ROWS; i++) {
    const cli_section *si = spec->sections;
    const cli_opt *a = row_at(spec, i, &si);
    const bool custom_ok = a->kind != CLI_CUSTOM || (a->parse && (a->range || a->range_fn));
    const bool choice_ok = a->kind != CLI_CHOICE || a->names;
    if (!custom_ok || !choice_ok || !a->name || a->name[0] != '-') {
      cli_error("%s: %s: the row is incomplete", spec->command, a->name ? a->name : "?");
      ok = false;
    }
    for (int j = i + 1; j < n; j++) {
      const cli_section *sj = spec->sections;
      const cli_opt *b = row_at(spec, j, &sj);
      if (!named(b, a->name) && !(a->alias && named(b, a->alias))) continue;
      if (takes_value(a) != takes_value(b)) {
        cli_error("%s: %s: one row takes a value, another not", spec->command, a->name);
        ok = false;
      }
      if (row_kinds(spec, si, a) & row_kinds(spec, sj, b)) {
        cli_error("%s: %s: two rows for the same kind", spec->command, a->name);
        ok = false;
      }
    }
  }
  return ok;
}

static int dump(const cli_spec *spec) {
  if (!spec_ok(spec)) return CLI_EXIT_FAIL;
  printf("command\t%s\nalgo\t%s\n", spec->command, spec->algo_option ? spec->algo_option : "-");
  for (size_t k = 0; k < spec->nkinds; k++)
    printf("kind\t%zu\t%s\t%s\n", k, spec->kinds[k].key, spec->kinds[k].label);
  /* The options that select a kind by being given (--graph). */
  const int n = row_count(spec);
  for (int i = 0; i < n && spec->kind_of; i++) {
    const cli_opt *o = row_at(spec, i, NULL);
    if (first_named(spec, o->name) != i) continue;
    cli_args a;
    memset(&a, 0, sizeof a);
    a.spec = spec;
    a.seen[i] = 1;
    const int k = spec->kind_of(&a);
    if (k != 0) printf("selects\t%s\t%s\n", o->name, spec->kinds[k].key);
  }
  /* One line a row and kind it applies to. */
  for (size_t k = 0; k < spec->nkinds; k++) {
    for (int i = 0; i < n; i++) {
      const cli_section *s = spec->sections;
      const cli_opt *o = row_at(spec, i, &s);
      if (o->kind == CLI_HELP || !(row_kinds(spec, s, o) & CLI_KIND(k))) continue;
      char good[128], bad[128], range[512];
      samples(o, good, bad, sizeof good);
      cli_opt_range(o, range, sizeof range);
      const bool algos = o->algos && (spec->algo_kinds & CLI_KIND(k));
      printf("opt\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", spec->kinds[k].key, o->name,
             o->alias ? o->alias : "-", vkind_name(o->kind), good, bad,
             takes_value(o) ? range : "-", algos ? o->algos : "-");
    }
  }
  return CLI_EXIT_OK;
}

/* ---- parsing -------------------------------------------------------------------------- */

static void scan_init(scan *sc, const cli_args *a) {
  memset(sc, 0, sizeof *sc);
  sc->spec = a->spec;
  sc->argc = a->argc;
  sc->argv = a->argv;
  sc->next = 1; /* argv[0] is the command's name */
}

int cli_parse(cli_args *a, const cli_spec *spec, int argc, char **argv, void *settings) {
  memset(a, 0, sizeof *a);
  a->spec = spec;
  a->argc = argc;
  a->argv = argv;
  if (row_count(spec) > CLI_MAX_ROWS) {
    cli_error("%s: the option table is too large", spec->command);
    return CLI_EXIT_FAIL;
  }
  /* First reading: names, --help, positionals, what was given. */
  scan sc;
  scan_init(&sc, a);
  token t, error = {0};
  bool help = false, want_dump = false, failed = false;
  while (next_token(&sc, &t) != T_END) {
    if (t.type == T_POS) {
      if (a->npos < CLI_MAX_POS) a->pos[a->npos] = t.arg;
      a->npos++;
      continue;
    }
    if (t.row == ROW_DUMP) {
      want_dump = true;
      continue;
    }
    if (t.row >= 0) {
      const cli_opt *o = row_at(spec, t.row, NULL);
      a->seen[t.row]++;
      if (!takes_value(o) && t.has_inline) {
        if (!failed) error = t;
        failed = true;
      } else if (o->kind == CLI_HELP) {
        help = true;
      }
      continue; /* a missing value is told with the row of the kind, below */
    }
    if (!failed) error = t;
    failed = true;
  }
  if (want_dump) return dump(spec);
  if (help) {
    cli_print_help(stdout, spec, cli_page_of(spec, spec->kind_of ? spec->kind_of(a) : 0));
    return CLI_EXIT_OK;
  }
  if (failed) {
    if (error.row < 0) return unknown_option(spec, &error);
    return cli_usage_error("%s: takes no value, got '%s'", error.name, error.value);
  }
  a->kind = spec->kind_of ? spec->kind_of(a) : 0;

  /* Second reading: every option by its kind's row, in order. */
  scan_init(&sc, a);
  while (next_token(&sc, &t) != T_END) {
    if (t.type != T_OPT) continue;
    const int r = row_for_kind(spec, t.name, a->kind);
    if (r < 0) return other_kind(spec, &t, a->kind);
    const cli_section *s = spec->sections;
    const cli_opt *o = row_at(spec, r, &s);
    char range[512];
    if (takes_value(o) && !t.value) {
      cli_opt_range(o, range, sizeof range);
      return cli_usage_error("%s: missing value, expected %s", t.name, range);
    }
    if (o->kind == CLI_HELP) continue;
    if (!convert(o, t.value, (char *)settings + s->base + o->off)) {
      cli_opt_range(o, range, sizeof range);
      return cli_usage_error("%s: expected %s, got '%s'", t.name, range, t.value);
    }
    a->given[r]++;
  }
  return -1;
}

/* ---- what was given ---------------------------------------------------------------------- */

static unsigned count_named(const cli_args *a, const uint16_t *counts, const char *name) {
  unsigned total = 0;
  const int n = row_count(a->spec);
  for (int i = 0; i < n && i < CLI_MAX_ROWS; i++)
    if (named(row_at(a->spec, i, NULL), name)) total += counts[i];
  return total;
}

unsigned cli_seen(const cli_args *a, const char *name) {
  return count_named(a, a->seen, name);
}

unsigned cli_given(const cli_args *a, const char *name) {
  return count_named(a, a->given, name);
}

const char *cli_section_given(const cli_args *a, size_t index) {
  int first = 0;
  for (size_t s = 0; s < index && s < a->spec->nsections; s++)
    first += (int)a->spec->sections[s].group->n;
  const cli_group *g = a->spec->sections[index].group;
  for (size_t i = 0; i < g->n; i++)
    if (a->given[first + (int)i]) return g->rows[i].name;
  return NULL;
}

/* Is `algo` one of the '|'-separated names of `list`? */
static bool listed(const char *list, const char *algo) {
  const size_t n = strlen(algo);
  for (const char *p = list; *p;) {
    const char *bar = strchr(p, '|');
    const size_t k = bar ? (size_t)(bar - p) : strlen(p);
    if (k == n && strncmp(p, algo, n) == 0) return true;
    if (!bar) break;
    p = bar + 1;
  }
  return false;
}

int cli_check_algo(const cli_args *a, const char *algo) {
  const int n = row_count(a->spec);
  const char *opt = a->spec->algo_option ? a->spec->algo_option : "--algo";
  for (int i = 0; i < n && i < CLI_MAX_ROWS; i++) {
    const cli_opt *o = row_at(a->spec, i, NULL);
    if (!a->given[i] || !o->algos || listed(o->algos, algo)) continue;
    char names[128];
    size_t used = 0;
    for (const char *p = o->algos; *p && used + 5 < sizeof names; p++) {
      if (*p == '|') {
        used += (size_t)snprintf(names + used, sizeof names - used, " or %s ", opt);
      } else {
        names[used++] = *p;
        names[used] = '\0';
      }
    }
    return cli_usage_error("%s: %s needs %s %s (got %s %s)", a->spec->command, o->name, opt, names,
                           opt, algo);
  }
  return -1;
}

size_t cli_positionals(const cli_args *a, const char **out, size_t cap) {
  scan sc;
  scan_init(&sc, a);
  token t;
  size_t n = 0;
  while (next_token(&sc, &t) != T_END)
    if (t.type == T_POS && n < cap) out[n++] = t.arg;
  return n;
}
