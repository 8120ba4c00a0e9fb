/*
** opts.h -- the tool's options as tables, after git's parse-options: one
** row an option (its name, the kind and range of its value, where the value
** goes, its help), rows gathered in groups that several commands share (the
** search options, the movement rules, ...), and a command's spec listing its
** groups. From the spec alone come the parser (options and positionals in
** any order, `--name value` and `--name=value`, `--` ending the options),
** every message about an option (an unknown name with the closest one, a
** missing or bad value with the accepted range, an option of another map
** kind), the command's `--help` pages (and so the manual page, man.c) and
** `astar COMMAND --dump-options`, the list tests/cli/options_test.sh tests
** every option from.
**
** A command may serve several kinds of input or modes (solve: square maps,
** hex maps, graphs): the spec names them, each row says which it applies
** to, and the command decides the kind from what was parsed and the input
** (kind_of) -- never by scanning argv itself. Rows of the same name may
** exist once per kind, with values of their own (--algo on a square map and
** on a hex map).
**
** How to add an option: tools/README.md.
*/
#ifndef ASTAR_CLI_OPTS_H
#define ASTAR_CLI_OPTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What an option's value is. */
typedef enum cli_vkind {
  CLI_FLAG,   /* no value: stores `set` (1 unless given) */
  CLI_INT,    /* digits only, from min to max: stored as an integer of the field's size */
  CLI_NUMBER, /* a finite number, >= dmin (> dmin with CLI_EXCL_MIN), <= dmax (0:
                 ASTAR_OPTION_MAX): a double or a float */
  CLI_CHOICE, /* one of names[]: stores values[i] (i without values) as an integer */
  CLI_TEXT,   /* any text, a file name: stores the const char * (argv's) */
  CLI_CELLS,  /* ncells comma-separated cell coordinates (0 .. CLI_CELL_MAX) into int32_t[] */
  CLI_CUSTOM, /* parse(): a form of its own, described by range / range_fn */
  CLI_HELP,   /* -h, --help: prints the help page of the command line's kind */
} cli_vkind;

#define CLI_EXCL_MIN 1u   /* CLI_NUMBER: the value must be above dmin */
#define CLI_HIDDEN 2u     /* not listed in --help (another row's help covers it) */
#define CLI_OFF LLONG_MIN /* CLI_FLAG: store 0 (`--no-picture`) */

typedef struct cli_opt cli_opt;

/* CLI_CUSTOM: convert `text` into dest (the field at off). False when the
** text is not of the form; the parser then prints "NAME: expected RANGE,
** got 'TEXT'". Must not print. */
typedef bool (*cli_opt_parse_fn)(const cli_opt *o, const char *text, void *dest);
/* CLI_CUSTOM: the accepted values in words when they are computed. */
typedef void (*cli_opt_range_fn)(char *buf, size_t size);

struct cli_opt {
  const char *name;          /* "--weight" */
  const char *alias;         /* "-o" (shown "-o, --output"), another long name, or NULL */
  const char *meta;          /* the value in --help: "W", "FILE"; NULL for a flag */
  size_t off, size;          /* the field the value goes to in the group's struct: CLI_AT
                                (a CLI_CUSTOM or CLI_TEXT row needs .off alone) */
  uint64_t min, max;         /* CLI_INT */
  double dmin, dmax;         /* CLI_NUMBER */
  long long set;             /* CLI_FLAG: the value stored (0: 1; CLI_OFF: 0) */
  const char *const *names;  /* CLI_CHOICE: NULL-terminated */
  const int *values;         /* CLI_CHOICE: stored for names[i]; NULL: i */
  const char *form;          /* CLI_CELLS with ncells > 1: "X0,Y0,X1,Y1" */
  cli_opt_parse_fn parse;    /* CLI_CUSTOM */
  const char *range;         /* CLI_CUSTOM, CLI_TEXT: what it accepts, after "expected " */
  cli_opt_range_fn range_fn; /* CLI_CUSTOM: the same, computed */
  const char *algos;         /* it needs one of these algorithms ("beam", "a|b"); NULL: any
                                (cli_check_algo) */
  const char *sample;        /* a value it takes, for the tests; NULL: derived */
  const char *bad;           /* a value it refuses, for the tests; NULL: derived */
  const char *display;       /* the left column of --help instead of "NAME META" */
  const char *help;          /* the --help text (laid out by the help, a '\n' is a space);
                                "%r" is the range ("1..64" for an integer), "%v" the
                                values ("a|b") */
  cli_vkind kind;
  unsigned flags; /* CLI_EXCL_MIN, CLI_HIDDEN */
  int ncells;     /* CLI_CELLS */
  unsigned kinds; /* the kinds it applies to (CLI_KIND bits); 0: its section's */
};

/* The field a row's value goes to: `CLI_AT(astar_options, weight)`. */
#define CLI_AT(TYPE, FIELD) .off = offsetof(TYPE, FIELD), .size = sizeof(((TYPE *)0)->FIELD)

/* Rows that go together (the search options), shared by commands. */
typedef struct cli_group {
  const cli_opt *rows;
  size_t n;
} cli_group;
#define CLI_ROWS(ARRAY)                                                                            \
  { (ARRAY), sizeof(ARRAY) / sizeof((ARRAY)[0]) }

/* A group in a command: where its struct lies in the command's settings,
** which kinds it serves and how --help shows it. */
typedef struct cli_section {
  const char *heading; /* "Search options:" after a blank line; NULL: the rows go on
                          the section above */
  const cli_group *group;
  size_t base;      /* offset of the group's struct in the command's settings */
  unsigned kinds;   /* CLI_KIND bits; 0: every kind */
  const char *note; /* lines after the rows in --help, or NULL */
  bool hidden;      /* parsed, never shown (a command that refuses them by name) */
} cli_section;

#define CLI_KIND(i) (1u << (i))
#define CLI_MAX_KINDS 8

/* A kind of input or mode of a command. */
typedef struct cli_kind {
  const char *key;   /* "hex": --dump-options, tests */
  const char *label; /* "hex maps": messages */
  const char *hint;  /* "astar solve MAP.hex --help": where its options are listed */
} cli_kind;

/* One --help page: what `astar COMMAND --help` prints for these kinds. */
typedef struct cli_page {
  unsigned kinds;           /* CLI_KIND bits of the rows it lists */
  const char *title;        /* the manual page's subsection of a page after the first:
                               "astar solve MAP.hex" */
  void (*intro)(FILE *out); /* usage lines and description, up to the options */
  void (*outro)(FILE *out); /* after the options: notes, exit status (may be NULL) */
} cli_page;

typedef struct cli_args cli_args;

typedef struct cli_spec {
  const char *command;
  const cli_section *sections;
  size_t nsections;
  const cli_kind *kinds; /* at least one; kinds[0] is the default */
  size_t nkinds;
  const cli_page *pages; /* pages[0]: `astar COMMAND --help` without a kind */
  size_t npages;
  /* The kind of the command line from its positionals and the options seen
  ** (cli_seen) -- and the input they name; NULL: always kinds[0]. */
  int (*kind_of)(const cli_args *a);
  const char *algo_option; /* the option that chooses the algorithm ("--algo"), or NULL */
  unsigned algo_kinds;     /* the kinds it does so in (where rows' `algos` are checked) */
} cli_spec;

/* The arrays of a spec: .sections = x, .nsections = its length, ... */
#define CLI_COUNT(ARRAY) (sizeof(ARRAY) / sizeof((ARRAY)[0]))
#define CLI_SECTIONS(ARRAY) .sections = (ARRAY), .nsections = CLI_COUNT(ARRAY)
#define CLI_KINDS(ARRAY) .kinds = (ARRAY), .nkinds = CLI_COUNT(ARRAY)
#define CLI_PAGES(ARRAY) .pages = (ARRAY), .npages = CLI_COUNT(ARRAY)

#define CLI_MAX_ROWS 256 /* rows of one spec */
#define CLI_MAX_POS 16   /* positionals kept in cli_args (cli_positionals: all) */

struct cli_args {
  const cli_spec *spec;
  int argc;
  char **argv;
  int kind;                     /* after cli_parse: the kind the options were read for */
  int npos;                     /* positionals given */
  const char *pos[CLI_MAX_POS]; /* the first CLI_MAX_POS of them */
  uint16_t seen[CLI_MAX_ROWS];  /* per row: its name given (on the first row of a name) */
  uint16_t given[CLI_MAX_ROWS]; /* per row: times it was applied */
};

/* Parse argv (argv[0] the command's name) by the spec into `settings`, the
** command's struct holding every section's (defaults set by the caller):
** first the whole command line is read (unknown option names, flags given a
** value), then its kind decided (spec->kind_of), then every option applied
** in order with its kind's row. --help anywhere prints the help page of the
** command line's kind; --dump-options lists the rows. Returns -1 to go on,
** or the exit status to return: 0 after --help or --dump-options,
** CLI_EXIT_USAGE after a message on standard error. */
int cli_parse(cli_args *a, const cli_spec *spec, int argc, char **argv, void *settings);

/* Times an option of this name was given: cli_seen before cli_parse has
** applied them (in kind_of), cli_given after (the rows of the kind). */
unsigned cli_seen(const cli_args *a, const char *name);
unsigned cli_given(const cli_args *a, const char *name);

/* The name of the first option given from section `index` of the spec, or
** NULL. */
const char *cli_section_given(const cli_args *a, size_t index);

/* Options given that need another algorithm than `algo` (their rows'
** `algos`): prints "COMMAND: NAME needs ALGO_OPTION X (got ALGO_OPTION
** ALGO)" and returns CLI_EXIT_USAGE; -1 when none. */
int cli_check_algo(const cli_args *a, const char *algo);

/* Every positional in order into out[0 .. cap-1]; returns their number. */
size_t cli_positionals(const cli_args *a, const char **out, size_t cap);

/* The help page `page` of the spec, as `astar COMMAND --help` prints it. */
void cli_print_help(FILE *out, const cli_spec *spec, size_t page);

/* The page that documents `kind`. */
size_t cli_page_of(const cli_spec *spec, int kind);

/* The accepted values of a row in words ("an integer from 1 to 64"), as
** its messages say them. */
void cli_opt_range(const cli_opt *o, char *buf, size_t size);

#endif /* ASTAR_CLI_OPTS_H */
