/*
** cli.h -- shared declarations of the astar command-line tool: exit codes,
** the command table, the shared option tables (opts.h), file loading,
** pictures and JSON.
** All file I/O of the project lives in tools/; the library never does any.
*/
#ifndef ASTAR_CLI_H
#define ASTAR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <astar/astar.h>

#include "opts.h"

/* Exit statuses: one table for every command (cli_exit_status_help, in
** `astar --help`, the manual page's EXIT STATUS and the README). */
#define CLI_EXIT_OK 0    /* success (solve: a path was found) */
#define CLI_EXIT_FAIL 1  /* no path, a run-time failure, a --check mismatch */
#define CLI_EXIT_USAGE 2 /* bad command line, a cell outside the map included */

/* The table, as `astar --help` prints it (options.c). */
extern const char cli_exit_status_help[];

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* ---- commands (main.c holds the table; one line per command) ---------- */

typedef int (*cli_command_fn)(int argc, char **argv); /* argv[0] = command name */

typedef struct cli_command {
  const char *name;
  const char *summary; /* one line for `astar --help` */
  cli_command_fn run;
  const cli_spec *spec; /* its options and --help pages (opts.h) */
} cli_command;

/* The commands' option tables (their cmd_*.c). */
extern const cli_spec cli_run_spec, cli_solve_spec, cli_bench_spec, cli_precompute_spec,
    cli_simulate_spec, cli_group_spec, cli_render_spec, cli_convert_spec, cli_mapf_spec,
    cli_mesh_spec;

int cli_cmd_run(int argc, char **argv);        /* cmd_run.c */
int cli_cmd_solve(int argc, char **argv);      /* cmd_solve.c */
int cli_cmd_bench(int argc, char **argv);      /* cmd_bench.c */
int cli_cmd_precompute(int argc, char **argv); /* cmd_precompute.c */
int cli_cmd_render(int argc, char **argv);     /* cmd_render.c */
int cli_cmd_simulate(int argc, char **argv);   /* cmd_simulate.c */
/* simulate --cooperative / --walk: agents moving at once (coop_sim.c). window
** 0: full cooperative search; max_frames 0: automatic. Returns an exit status. */
int cli_coop_simulate(const char *map_path, long agents, uint64_t seed, bool cooperative,
                      long window, long max_frames, const astar_options *opt);
int cli_cmd_group(int argc, char **argv);   /* cmd_group.c */
int cli_cmd_convert(int argc, char **argv); /* cmd_graph.c */
int cli_cmd_mapf(int argc, char **argv);    /* cmd_mapf.c (mapf_tool.h) */
int cli_cmd_mesh(int argc, char **argv);    /* cmd_mesh.c */

/* `astar --man`: the manual page in roff, made from print_help and every
** command's help pages (man.c). Returns the exit status. */
int cli_print_man(FILE *out, const cli_command *commands, size_t ncommands,
                  void (*print_help)(FILE *out));

/* ---- messages (options.c) ---------------------------------------------- */

/* "astar: <message>\n" on stderr. */
void cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);

/* Usage error: prints "astar: <message>" and returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) CLI_PRINTF(1, 2);

/* ---- positionals (options.c); options are read by their tables (opts.h) ---- */

/* Strict integer parsing (a node id S T). On failure it prints
** "astar: WHAT: expected an integer from MIN to MAX, got 'TEXT'" (the same
** message whatever was wrong) and returns false. */
bool cli_parse_int(const char *what, const char *text, long min, long max, long *out);

/* Cell coordinates on the command line (SX SY GX GY, --goals, --region,
** --cone, ...) are integers from 0 to CLI_CELL_MAX, the largest grid side
** less one: digits only, no sign, no fraction, no exponent -- a value like
** 55.9 or 1e20 is refused rather than converted (a float out of int range
** converted to int is undefined behaviour). Whether a cell lies inside the
** map is checked once the map is loaded. */
#define CLI_CELL_MAX (ASTAR_GRID_MAX_SIDE - 1)

/* Read n comma-separated cell coordinates at the start of `text` into
** out[0 .. n-1]. With `end` NULL the text must end after them; otherwise
** *end receives the character after the last digit (the caller checks what
** follows). Quiet: false on any failure, out partly written. */
bool cli_scan_cells(const char *text, int n, int32_t *out, const char **end);

/* cli_scan_cells of the whole `text`; on failure prints "WHAT: expected a
** cell coordinate, an integer from 0 to 32767, got 'TEXT'" (n 1) or "WHAT:
** expected FORM with cell coordinates, integers from 0 to 32767, got 'TEXT'"
** and returns false. */
bool cli_parse_cells(const char *what, const char *form, const char *text, int n, int32_t *out);

/* ---- the search options shared by the commands (options.c) --------------- */

/* The movement rules (--moves, --corner, --costs: what decides the moves of
** a map and their costs, and so what a precomputed file is valid for) and
** the other search options, as rows over an astar_options. */
extern const cli_group cli_rules_group;
extern const cli_group cli_search_group;

/* The sections of a command whose astar_options is FIELD of TYPE: the
** rules, then the rest, under "Search options:", for KINDS (0: all). */
#define CLI_SEARCH_SECTIONS(TYPE, FIELD, KINDS)                                                    \
  {"Search options:", &cli_rules_group, offsetof(TYPE, FIELD), (KINDS), NULL, false}, {            \
    NULL, &cli_search_group, offsetof(TYPE, FIELD), (KINDS), NULL, false                           \
  }

/* The row of -h, --help, the last of a command's own options. */
#define CLI_HELP_ROW                                                                               \
  { .name = "--help", .alias = "-h", .kind = CLI_HELP, .help = "show this help" }

/* The movement rules of opt in words: "8 moves, corners no-cut, costs
** 1/1.414213562" or "4 moves, cost 1"; with `exact`, the costs in the
** digits that read back as the very same numbers. */
void cli_rules_text(char *buf, size_t size, const astar_options *opt, bool exact);

/* The options that give opt's movement rules to a command, each behind a
** space, the defaults left out: " --moves 4", " --corner always --costs
** 10,14", "" for the defaults (costs in the digits that read back exactly). */
void cli_rules_args(char *buf, size_t size, const astar_options *opt);

/* Names of the enum values, for printing settings. */
const char *cli_corner_name(astar_corner c);
const char *cli_heuristic_name(astar_heuristic h);
const char *cli_tie_name(astar_tie t);

/* One-line summary of the options ("8 moves, no-cut corners, costs 1/1.414..."). */
void cli_describe_options(FILE *out, const astar_options *opt);

/* ---- search algorithms (algos.c) ----------------------------------------
** An algorithm is a find function with the astar_find_path signature. One
** that answers queries from per-map preprocessing (JPS+) also has a
** cli_pre_ops: hooks that build the preprocessing for a grid (or load it
** from bytes made by `save`), a search that uses it, and its release. Its
** `find` stays self-contained -- it builds and frees the preprocessing
** around a single query -- so `run` and `solve` need not know the
** difference; `bench` and `precompute` use the hooks (cli_prepare). */

typedef astar_status (*cli_find_fn)(astar_workspace *ws, const astar_grid *grid,
                                    const astar_options *opt, astar_point start, astar_point goal,
                                    astar_point *path, size_t cap, astar_result *result);

typedef struct cli_limit cli_limit; /* fileio.c's section below */

typedef struct cli_pre_ops {
  /* opt: the search options, for preprocessing that depends on them (the
  ** movement rules of HPA* and landmarks, the corner rule of a waypoint
  ** graph); ASTAR_UNSUPPORTED for options the preprocessing cannot honour
  ** (cli_algo_unsupported says why). */
  astar_status (*build)(void **ctx, const astar_grid *grid, const astar_options *opt);
  /* opt: the search options, for files valid only under the rules they
  ** were built for (HPA*, landmarks), checked against them; JPS+ and CPD
  ** files are the same for every rule set their searches take (which
  ** those refuse at once). On failure the hook may write to why[0 ..
  ** size-1] a sentence that replaces the generic message. */
  astar_status (*load)(void **ctx, const astar_grid *grid, const astar_options *opt,
                       const void *buf, size_t len, char *why, size_t size);
  astar_status (*save)(const void *ctx, void *buf, size_t cap, size_t *len);
  size_t (*memory)(const void *ctx); /* bytes held */
  /* Nodes and edges of a precomputed graph (waypoints), for reports; NULL:
  ** the preprocessing is not a graph. */
  void (*graph_size)(const void *ctx, size_t *nodes, size_t *edges);
  void (*release)(void *ctx);
  astar_status (*find)(const void *ctx, astar_workspace *ws, const astar_grid *grid,
                       const astar_options *opt, astar_point start, astar_point goal,
                       astar_point *path, size_t cap, astar_result *result);
  /* The most bytes a file of this format holds for `grid`, from its first
  ** len bytes (cli_limit_fn): a --pre file is read no further. A head
  ** without the format's magic stops the read (load then rejects it).
  ** NULL when load is. */
  void (*limit)(const astar_grid *grid, const char *head, size_t len, cli_limit *out);
  /* Attach the preprocessing to a finder's config (cfg->jps_plus, ->cpd,
  ** ->hpa, ->landmarks or ->waypoints): what the search is prepared from. */
  void (*attach)(const void *ctx, astar_finder_config *cfg);
} cli_pre_ops;

/* For the limit hooks: *out says "stop" when the first bytes of head[0 ..
** len-1] differ from magic[0 .. 7] (true), else nothing changes (false). */
bool cli_pre_magic_differs(const char *head, size_t len, const char *magic, cli_limit *out);

/* For the load hooks refused a file (ASTAR_MISMATCH): the sentence saying
** why into why[0 .. size-1]. `file`: the movement rules the file records
** (NULL: it records none). When they differ from the search's `opt`: "the
** WHAT was built for RULES, not for this search's RULES (make a file for
** them: astar precompute MAP --method METHOD OPTIONS -o FILE; or drop
** --pre)"; when they are the same, that the file belongs to another map;
** without them, that it was built for another map or other rules. */
void cli_pre_refusal(char *why, size_t size, const char *what, const char *method,
                     const astar_options *file, const astar_options *opt);

/* Build the preprocessing of `ops` for `grid`, search once, release it:
** the one-shot use (run, solve) of an algorithm with preprocessing. */
astar_status cli_pre_find_once(const cli_pre_ops *ops, astar_workspace *ws, const astar_grid *grid,
                               const astar_options *opt, astar_point start, astar_point goal,
                               astar_point *path, size_t cap, astar_result *result);

/* An --algo value: a method of the library's table (astar_method_info_of;
** its name and, for a method the tool has no entry of its own for, its
** summary), or the tool's one alias, "landmarks" (astar with a landmark
** table attached). Every search with it goes through a finder prepared
** once (cli_prepare: astar_finder_new, the preprocessing attached),
** except --space graph's engine A* and Dijkstra over the grid as a space
** (`find`). */
typedef struct cli_algo {
  const char *name;
  const char *summary;
  cli_find_fn find;       /* one self-contained search without a finder; NULL: the finder's */
  const cli_pre_ops *pre; /* NULL: no preprocessing */
  astar_algorithm rules;  /* whose option rules apply (astar_unsupported_reason) */
  bool engine;            /* runs through the search engine, the grid as a space */
  astar_method method;    /* the library's method (astar/finder.h) */
} cli_algo;

/* The engine's version of `algo` (for --space graph): itself when it is an
** engine method, NULL after a message when it has none (jps, jps-plus). */
const cli_algo *cli_algo_on_graph(const cli_algo *algo);

/* The waypoint-graph version of `algo` (--space waypoints; waypoints.c):
** the engine's method of the same name on the grid's waypoint graph, NULL
** after a message when it has none (jps, jps-plus). */
const cli_algo *cli_algo_on_waypoints(const cli_algo *algo);

/* Is `algo` one of those: an any-angle search whose path holds the bends
** (the waypoints) and whose costs are straight-line distances? */
bool cli_algo_is_waypoints(const cli_algo *algo);

/* The any-angle searches of astar/anyangle.h (anyangle.c): the entry
** called `name`, or NULL. */
const cli_algo *cli_anyangle_algo(const char *name);
/* The any-angle searches in order; NULL past the last. */
const cli_algo *cli_anyangle_at(size_t i);

/* Is `algo` an any-angle search -- Theta*, Lazy Theta*, or an engine
** method on the waypoint graph: a path of bends whose cost is straight-line
** length, at most the grid optimum rather than equal to it? */
bool cli_algo_is_any_angle(const cli_algo *algo);

/* Is `algo` Anya (astar/anya.h)? Its points are grid corners, not cells:
** cli_print_anya_solution reports the last search's (the cells in sol are
** only those below and right of each point). */
bool cli_algo_is_anya(const cli_algo *algo);
/* Keep pts[0 .. n-1] as the last Anya search's points (what
** cli_print_anya_solution prints): false when out of memory. */
bool cli_anya_keep(const astar_vec2 *pts, size_t n);

/* Why an any-angle search of anyangle.c cannot run with these options on
** `grid` (NULL: unchecked); NULL when it can, or when algo is not one. */
const char *cli_anyangle_unsupported(const cli_algo *algo, const astar_options *opt,
                                     const astar_grid *grid);

/* Why a waypoint graph cannot be built or searched with these options on
** `grid` (NULL: any grid's properties unchecked); NULL when it can. */
const char *cli_waypoints_unsupported(const astar_options *opt, const astar_grid *grid);

/* Why `algo` cannot run with these options on `grid` (NULL: it can); the
** library's sentence (astar_unsupported_reason). */
const char *cli_algo_unsupported(const cli_algo *algo, const astar_options *opt,
                                 const astar_grid *grid);
/* astar_finder_unsupported_reason's sentence `why` with the library's
** option names (options.terrain_scale, cfg.smooth, ...) replaced by the
** tool's (--terrain-scale, --smooth, ...); static storage, NULL for NULL. */
const char *cli_reason_text(const char *why);
/* The same for the options alone, whatever the map (NULL: fine). */
const char *cli_algo_unsupported_options(const cli_algo *algo, const astar_options *opt);

/* The names as "astar|jps|...", for messages and help. */
void cli_algo_list(char *buf, size_t size);

/* The algorithms --algo names, in order (the grid's, then the any-angle
** searches); NULL past the last. Every list of values below comes from it. */
const cli_algo *cli_algo_at(size_t i);

/* The values of the options that name an algorithm (CLI_CUSTOM rows whose
** field, at .off, is a const cli_algo *): --algo (any), --any-angle (theta,
** lazy-theta, anya), render's --algo (what it draws), precompute's
** --method (what saves a preprocessing). */
bool cli_algo_parse(const cli_opt *o, const char *text, void *dest);
void cli_algo_range(char *buf, size_t size);
bool cli_any_angle_parse(const cli_opt *o, const char *text, void *dest);
void cli_any_angle_range(char *buf, size_t size);
bool cli_drawn_algo_parse(const cli_opt *o, const char *text, void *dest);
/* Does `a` report its search's events to options.observer (render, --trace)? */
bool cli_algo_reports_events(const cli_algo *a);
void cli_drawn_algo_range(char *buf, size_t size);
bool cli_drawn_any_angle_parse(const cli_opt *o, const char *text, void *dest);
void cli_drawn_any_angle_range(char *buf, size_t size);
bool cli_pre_algo_parse(const cli_opt *o, const char *text, void *dest);
void cli_pre_algo_range(char *buf, size_t size);
/* --algo of hex maps and graphs: the methods the engine runs over them
** (astar, dijkstra, greedy, bidir), stored as an astar_method; its name. */
bool cli_space_algo_parse(const cli_opt *o, const char *text, void *dest);
void cli_space_algo_range(char *buf, size_t size);
const char *cli_space_algo_name(astar_method m);

/* The row of --algo over the const cli_algo * FIELD of TYPE (solve, bench)
** for KINDS. */
#define CLI_ALGO_ROW(TYPE, FIELD, KINDS)                                                           \
  {                                                                                                \
    .name = "--algo", .meta = "NAME", .kind = CLI_CUSTOM, .off = offsetof(TYPE, FIELD),            \
    .parse = cli_algo_parse, .range_fn = cli_algo_range, .sample = "astar", .kinds = (KINDS),      \
    .help = "search algorithm: %v (default astar)"                                                 \
  }

/* --any-angle NAME, the same as --algo NAME for the any-angle searches. */
#define CLI_ANY_ANGLE_ROW(TYPE, FIELD, KINDS)                                                      \
  {                                                                                                \
    .name = "--any-angle", .meta = "NAME", .kind = CLI_CUSTOM, .off = offsetof(TYPE, FIELD),       \
    .parse = cli_any_angle_parse, .range_fn = cli_any_angle_range, .sample = "theta",              \
    .kinds = (KINDS), .help = "%v: the same as --algo NAME"                                        \
  }

/* The algorithm called `name`, or NULL after printing a usage error. */
const cli_algo *cli_find_algo(const char *name);

/* ---- settings of the engine's variants (algos.c) --------------------------
** --width (beam), --epsilon (dynamic), --band-e / --band-d (bandwidth): each
** accepted only with its method (the rows' `algos`, cli_check_algo). The
** command parses them by their table, checks them against the algorithm
** and hands them over with cli_variant_use before searching; after each
** engine search cli_variant_last says what the library reported besides
** the grid's result (drops, iterations). */

/* --landmarks K and --landmark-choice C: the landmark table of the grid's
** landmark A*, of a hex map or of a graph (each command's count 0: none). */
typedef struct cli_landmark_settings {
  uint32_t count; /* landmarks, 1 .. ASTAR_LANDMARKS_MAX */
  int choice;     /* astar_landmark_choice */
} cli_landmark_settings;
extern const cli_group cli_landmark_group;

typedef struct cli_variant_settings {
  uint32_t width;                  /* beam width */
  double epsilon;                  /* dynamic weighting */
  double band_e, band_d;           /* bandwidth search */
  cli_landmark_settings landmarks; /* the grid's landmark A* */
} cli_variant_settings;

typedef struct cli_variant_outcome {
  uint64_t dropped;    /* beam, bandwidth: entries dropped */
  uint64_t iterations; /* ida: iterations; retarget: legs */
} cli_variant_outcome;

/* --width, --epsilon, --band-e, --band-d, each needing its --algo. */
extern const cli_group cli_variant_group;

/* The sections of the variants' settings and the landmarks' of a command
** whose cli_variant_settings is FIELD of TYPE. */
#define CLI_VARIANT_SECTIONS(TYPE, FIELD, KINDS)                                                   \
  {"Settings of the engine's variants and of landmark A* (with their --algo only):",               \
   &cli_variant_group,                                                                             \
   offsetof(TYPE, FIELD),                                                                          \
   (KINDS),                                                                                        \
   NULL,                                                                                           \
   false},                                                                                         \
  {                                                                                                \
    NULL, &cli_landmark_group, offsetof(TYPE, FIELD) + offsetof(cli_variant_settings, landmarks),  \
        (KINDS), NULL, false                                                                       \
  }

/* The library's defaults, 4 landmarks. */
void cli_variant_defaults(cli_variant_settings *v);

/* ", width 64" (beam), ", epsilon 1" (dynamic), ", band -D/+E" (bandwidth):
** the settings `algo` uses, for an options line. */
void cli_variant_describe(FILE *out, const cli_variant_settings *v, const cli_algo *algo);

/* Use these settings in the engine searches that follow. */
void cli_variant_use(const cli_variant_settings *v);

/* The algorithm the options given select: --landmarks with --algo astar
** (the default) means --algo landmarks; otherwise `algo`. */
const cli_algo *cli_variant_algo(const cli_args *a, const cli_algo *algo);

/* What the last engine search reported besides the grid's result. */
const cli_variant_outcome *cli_variant_last(void);

/* ---- HPA* (hpa.c) ---------------------------------------------------------
** --algo hpa: the hierarchy built per map (or loaded with --pre), with the
** settings --cluster, --levels, --no-smooth (cli_hpa_group, over an
** astar_hpa_options) the command hands over with cli_hpa_use. */
extern const cli_group cli_hpa_group;
extern const cli_pre_ops cli_hpa_ops;
#define CLI_HPA_SECTION(TYPE, FIELD, KINDS)                                                        \
  {                                                                                                \
    "HPA* settings (--algo hpa only, --levels also subgoal; a --pre file keeps those\n"            \
    "it was built with, and is refused for other --moves, --corner or --costs than it\n"           \
    "was built for: give them to precompute too):",                                                \
        &cli_hpa_group, offsetof(TYPE, FIELD), (KINDS), NULL, false                                \
  }
/* The library's defaults. */
void cli_hpa_defaults(astar_hpa_options *o);
/* Build the hierarchies that follow with these settings. */
void cli_hpa_use(const astar_hpa_options *o);
/* Is `algo` HPA* (near-optimal: cost >= optimal, not always equal)? */
bool cli_algo_is_hpa(const cli_algo *algo);
/* One self-contained HPA* search (run, solve): build, search, release. */
astar_status cli_hpa_find(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                          astar_point start, astar_point goal, astar_point *path, size_t cap,
                          astar_result *result);

/* ---- subgoal graphs (subgoal.c) -------------------------------------------
** --algo subgoal: the graph built per map (or loaded with --pre), searched
** through a finder made with astar_finder_new_subgoal. --levels is one row
** for HPA* and subgoal graphs (cli_hpa_group, its value in the
** astar_hpa_options): cli_levels_use, once the algorithm is known, hands it
** to the subgoal builds (0 when not given: N-level) or checks HPA*'s range
** (a usage error, its exit status; -1 to go on). */
extern const cli_pre_ops cli_subgoal_ops;
int cli_levels_use(const cli_args *a, const cli_algo *algo, const char *command,
                   const astar_hpa_options *hpa);
/* The graph's size line (precompute). */
void cli_subgoal_report(FILE *out, const void *ctx);
/* One self-contained subgoal query (run, solve): build, search, release. */
astar_status cli_subgoal_find(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                              astar_point start, astar_point goal, astar_point *path, size_t cap,
                              astar_result *result);

/* ---- the compressed path database (cpd.c) ----------------------------------
** --algo cpd: the CPD built per map (or loaded with --pre); precompute's
** --threads N (1 .. 256) and --memory-limit BYTES (0: none) go to its build
** through cli_cpd_set_build. cli_cpd_report prints its size line. */
extern const cli_pre_ops cli_cpd_ops;
void cli_cpd_set_build(unsigned threads, uint64_t memory_limit);
void cli_cpd_report(FILE *out, const void *ctx);
/* One self-contained CPD query (run, solve): build, query, release. */
astar_status cli_cpd_find(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                          astar_point start, astar_point goal, astar_point *path, size_t cap,
                          astar_result *result);

/* An algorithm made ready for one grid: its preprocessing (if any) built or
** loaded, with the time that took and the bytes it holds. */
typedef struct cli_prepared {
  const cli_algo *algo;
  const astar_grid *grid;
  void *ctx;            /* NULL without preprocessing */
  astar_finder *finder; /* the prepared query (NULL: algo->find searches) */
  astar_vec2 *vec;      /* Anya's points, for the cells written (grown on demand) */
  size_t vec_cap;
  double seconds; /* build, or read + load, wall time */
  size_t bytes;   /* memory of the preprocessing */
} cli_prepared;

/* Prepare `algo` for `grid` and the search options `opt`: build its
** preprocessing, or with `pre_file` (not NULL) read and load it from that
** file. Algorithms without preprocessing need nothing (pre_file must then
** be NULL). Returns false after a message naming the file or the map
** `label` on failure. */
bool cli_prepare(cli_prepared *out, const cli_algo *algo, const astar_grid *grid,
                 const astar_options *opt, const char *label, const char *pre_file);

/* The preprocessing alone, built or loaded as cli_prepare does, without
** the finder (out->finder stays NULL): `precompute`, which only saves it --
** under MPI the ranks other than 0 hold no whole CPD a finder could take. */
bool cli_prepare_pre(cli_prepared *out, const cli_algo *algo, const astar_grid *grid,
                     const astar_options *opt, const char *label, const char *pre_file);

/* One search with a prepared algorithm (on the grid it was prepared for). */
astar_status cli_prepared_find(const cli_prepared *p, astar_workspace *ws, const astar_options *opt,
                               astar_point start, astar_point goal, astar_point *path, size_t cap,
                               astar_result *result);

/* Does `algo` search through a finder (all but --space graph's engine A*
** and Dijkstra)? Then a prepared one's finder runs batches (bench --threads). */
bool cli_algo_has_finder(const cli_algo *algo);

/* Why `algo` cannot search for a unit of side `size` with these options
** (the library's sentence, the tool's option names), NULL when it can. */
const char *cli_algo_unsupported_unit(const cli_algo *algo, const astar_options *opt, int32_t size);

/* Release the preprocessing (a zeroed or failed cli_prepared is fine). */
void cli_prepared_free(cli_prepared *p);

/* Wall-clock seconds (monotonic), for timing. */
double cli_now_seconds(void);

/* ---- files (fileio.c) -----------------------------------------------------
** Every input is read once, with read(2), into memory the tool owns (never
** mapped: a file that shrinks while it is read cannot fault the process),
** and no further than the largest size its format allows. Inputs that
** cannot be read twice (standard input, pipes, FIFOs, devices) are kept:
** a second read of the same path gives the same bytes. */

/* The most bytes an input may hold, as far as its first bytes tell. */
struct cli_limit {
  uint64_t bytes; /* stop reading past this many bytes, with an error */
  bool stop;      /* the bytes so far cannot begin a valid input of the format:
                     stop reading and hand them over (their parser says why) */
  char what[200]; /* the limit in words, after "larger than N bytes, ": "the
                     most a JPS+ file of this 64 x 64 map holds" */
};

/* Fill *out for an input whose first len bytes are head[] (NUL after
** them; len may be 0). Called again as the input grows; ud: the caller's. */
typedef void (*cli_limit_fn)(const char *head, size_t len, const void *ud, cli_limit *out);

/* Text inputs without a format limit of their own (scenarios, golden
** files): 1 GiB. Maps: their header's size or the largest grid's text,
** plus CLI_MAP_SLACK_BYTES of comment or blank lines. */
#define CLI_TEXT_MAX_BYTES ((uint64_t)1 << 30)
#define CLI_MAP_SLACK_BYTES ((uint64_t)1 << 20)

/* Read the whole input `path` ("-": standard input) into a malloc'd buffer
** with a NUL after the data, within `limit` (NULL: CLI_TEXT_MAX_BYTES).
** Prints "astar: PATH: reason" (for a size: "larger than N bytes, WHAT")
** and returns false on failure. */
bool cli_read_input(const char *path, cli_limit_fn limit, const void *ud, char **data, size_t *len);

/* cli_read_input with the default limit. */
bool cli_read_file(const char *path, char **data, size_t *len);

/* cli_read_input with the limits of a map (Moving AI by its header, else
** the largest grid's text). */
bool cli_read_map(const char *path, char **text, size_t *len);

/* Look at a map before choosing its parser: read it (cli_read_map, quietly)
** and hold the bytes -- or the failure, reported then -- for the next
** cli_read_map of the same path, so the file is still read once. The text
** (valid until that read), or NULL when it cannot be read. */
const char *cli_peek_map(const char *path, size_t *len);

/* Parse a map's text (Moving AI or ASCII) read from `path` (named in
** messages). start/goal (may be NULL) get the ASCII 'S'/'G' cells or
** (-1,-1). Prints "PATH:LINE:COL: message" and returns false on failure. */
bool cli_parse_map(const char *path, const char *text, size_t len, astar_grid **grid,
                   astar_point *start, astar_point *goal);

/* cli_read_map and cli_parse_map. */
bool cli_load_map(const char *path, astar_grid **grid, astar_point *start, astar_point *goal);

/* Read and parse a Moving AI .scen file; errors as for cli_load_map. */
bool cli_load_scen(const char *path, astar_scen **scen);

/* ---- output files (outfile.c) ---------------------------------------------
** Every file the tool writes goes through these. A regular file (or a new
** one) is written to a temporary file in its folder and renamed over it
** when complete: a failed write leaves what was there untouched and no
** temporary file behind. Anything else (/dev/null, /dev/full, a FIFO) is
** written directly and never removed. A symbolic link is followed (its
** target replaced or written); the link stays. */

typedef struct cli_out {
  FILE *f;          /* write here */
  const char *path; /* the name given, for messages */
  char *target;     /* the file the temporary replaces; NULL when direct */
  char *tmp;        /* the temporary file; NULL when direct */
  int err;          /* errno of a failed write the caller saw (0: none) */
} cli_out;

/* Open `path` for writing. False after "astar: PATH: reason". */
bool cli_out_open(cli_out *o, const char *path);

/* Flush and check every write, then put the file in place. False after
** "astar: PATH: reason" (a write error, a full disk), the temporary file
** removed; `path` is then as it was before cli_out_open. */
bool cli_out_close(cli_out *o);

/* Give up: close and remove the temporary file; nothing printed. */
void cli_out_abort(cli_out *o);

/* cli_out_open, len bytes, cli_out_close. */
bool cli_write_file(const char *path, const void *data, size_t len);

/* Print "PATH:LINE:COL: message" (or "PATH: message") for a parse failure. */
void cli_report_parse_error(const char *path, astar_status st, const astar_parse_error *err);

/* ---- pictures (picture.c) ------------------------------------------------ */

typedef struct cli_picture {
  const astar_grid *grid;
  const astar_point *path; /* may be NULL */
  size_t path_len;
  astar_point start, goal;  /* marked S and G when inside the grid */
  bool color;               /* ANSI colours */
  bool ruler;               /* column / row numbers */
  const astar_point *marks; /* cells drawn 'o' over the path (waypoints); may be NULL */
  size_t nmarks;            /* their number */
} cli_picture;

/* Draw the grid: '#' blocked, '.' open, '2'..'9' terrain cost, '+' other
** terrain, '*' path, 'o' marks, 'S' start, 'G' goal. */
void cli_draw(FILE *out, const cli_picture *pic);

/* True if colours should be used on `out` (a terminal and NO_COLOR unset). */
bool cli_want_color(FILE *out);

/* The legend line matching cli_draw. */
void cli_draw_legend(FILE *out, const astar_grid *grid);

/* ---- output helpers (report.c) ------------------------------------------- */

/* Shortest exact-looking form of a cost: "68", "12.3137085". */
void cli_format_cost(char *buf, size_t size, double cost);

/* "expanded 12, generated 30, reopened 0, max open 11" */
void cli_print_stats(FILE *out, const astar_stats *st);

/* Path as "(x,y) (x,y) ...", wrapped to `width` columns after `indent`. */
void cli_print_path(FILE *out, const astar_point *path, size_t n, int indent, int width);

/* ---- one search and its report (show.c) ---------------------------------- */

typedef struct cli_solution {
  astar_status status;
  astar_result result;
  astar_point *path; /* malloc'd; len cells when status is ASTAR_OK */
  size_t len;
  double seconds;              /* wall time of the search alone */
  uint64_t steps;              /* sliced searches (--budget): the steps taken; else 0 */
  bool has_pre;                /* the algorithm has preprocessing (reported apart) */
  const char *pre_file;        /* it was loaded from this file; NULL: built */
  double pre_seconds;          /* building or loading it */
  size_t pre_bytes;            /* its memory */
  astar_method method;         /* the engine's method that searched (ASTAR_METHOD_ASTAR also
                                  for the grid's own searches) */
  cli_variant_outcome variant; /* its drops and iterations */
  size_t grid_len;             /* --smooth: cells of the grid path before smoothing, else 0 */
  double grid_cost;            /* --smooth: its cost */
  double grid_segments_cost;   /* --smooth: its cost as straight segments between its cells
                                  (astar_polyline_cost), what smoothing never exceeds; -1 when
                                  it is not in sight step by step */
  double smooth_seconds;       /* --smooth: time of the string pulling */
  astar_knowledge *knowledge;  /* --fog: what the searcher knew (solve_extras.c), kept for
                                  --smooth and the report; freed by cli_solution_free */
  astar_layer *layer;          /* --cone: the influence layer searched, likewise */
} cli_solution;

/* Run one search with a fresh workspace, after preparing the algorithm
** (its preprocessing built, or loaded from pre_file when not NULL; label
** names the map in messages; timed
** apart from the search). Returns false (after a message) only when that
** preparation, the workspace or the path buffer fails; the search outcome
** is sol->status. Free with cli_solution_free. */
bool cli_solve_once(const cli_algo *algo, const astar_grid *grid, const astar_options *opt,
                    astar_point start, astar_point goal, const char *label, const char *pre_file,
                    cli_solution *sol);
void cli_solution_free(cli_solution *sol);

/* status / cost / length / work lines, and the path when with_path. */
void cli_print_solution(FILE *out, const cli_solution *sol, bool with_path);

/* --smooth: replace sol's grid path by its string-pulled points
** (astar_path_smooth under opt: the options the search ran with, its fog
** and layers included), the cost by theirs (astar_polyline_cost: terrain
** and layers weigh each segment); the grid path's length and costs kept in
** sol->grid_len / grid_cost / grid_segments_cost. False after a message on
** failure. */
bool cli_smooth_solution(cli_solution *sol, const astar_grid *grid, const astar_options *opt);

/* String-pull path[0 .. r->length-1] in place; r's length and cost become
** the smoothed path's (astar_polyline_cost: straight_cost x its length
** without terrain). astar_path_smooth's status (r and path untouched unless
** ASTAR_OK), or astar_polyline_cost's when the input was not in sight step
** by step (the length updated, the cost 0). */
astar_status cli_smooth_result(const astar_grid *grid, const astar_options *opt, astar_point *path,
                               astar_result *r);

/* The report of Anya's last search (anyangle.c): its points, cost, work. */
void cli_print_anya_solution(FILE *out, const cli_solution *sol);

/* The report of an any-angle path (waypoints.c): waypoint graphs, Theta*,
** a smoothed grid path. Status (`what` says what found it), cost, the
** waypoints, the cells walked between them (checked as a grid path under
** opt -- on the player's view with opt->knowledge) and, with `picture`, the
** map with the walk, the waypoints, start and goal. */
void cli_print_any_angle_solution(FILE *out, const cli_solution *sol, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  bool picture, const char *what);

/* "map:      LABEL (W x H, N open cells)" */
void cli_print_map_line(FILE *out, const char *label, const astar_grid *grid);

/* ---- JSON (jsonout.c) ------------------------------------------------------ */

/* Write `s` as a JSON string literal, quotes included. */
void cli_json_string(FILE *out, const char *s);

/* Write a finite number (non-finite values become 0). */
void cli_json_number(FILE *out, double v, int decimals);

/* ---- search traces: solve --trace (trace.c) -------------------------------
** JSON Lines: a header (map, query, options), one line per observer event,
** a result line (status, cost, path, statistics). docs/seeing-the-search.md. */

typedef struct cli_trace {
  FILE *out;
  const char *path; /* "-": standard output */
  bool to_stdout;
  uint64_t events;
  cli_out file; /* the file when not standard output */
} cli_trace;

/* Open `path` and write the header. False after a message naming the file. */
bool cli_trace_begin(cli_trace *t, const char *path, const char *map_label, const astar_grid *grid,
                     astar_point start, astar_point goal, const astar_options *opt,
                     const char *algo);

/* The observer (astar_observer_fn) writing one event line; ctx is the cli_trace. */
void cli_trace_event(void *ctx, const astar_event *e);

/* Write the result line and close. False after a message on a write error. */
bool cli_trace_end(cli_trace *t, const cli_solution *sol);

/* Close without a result line (the search could not run). */
void cli_trace_abort(cli_trace *t);

/* Machine-readable name of a status: "ok", "no_path", "limit_reached", ... */
const char *cli_status_key(astar_status st);

/* ---- game-loop options of solve (solve_extras.c) ---------------------------- */

#define CLI_MAX_GOALS 32
#define CLI_MAX_CONES 16

typedef struct cli_extras {
  uint64_t budget;                  /* --budget: expansions per step (0: one-shot) */
  astar_point goals[CLI_MAX_GOALS]; /* --goals: goals besides GX,GY */
  size_t ngoals;
  bool islands, retarget; /* --islands, --retarget (which implies --islands) */
  struct {
    int32_t x, y;         /* the centre: a cell (the layer clips the cone to the map) */
    float r, v;           /* radius > 0, value >= 0, both at most ASTAR_OPTION_MAX */
  } cones[CLI_MAX_CONES]; /* --cone X,Y,R,V */
  size_t ncones;
  int32_t fog;     /* --fog R, or -1 */
  bool region;     /* --region X0,Y0,X1,Y1: goal = any cell inside */
  int32_t rect[4]; /* its corners (inclusive) */
  bool refine;     /* --refine: first a quick path ignoring terrain */
} cli_extras;

/* The rows of the options above (--retarget implies --islands). */
extern const cli_group cli_extras_group;

/* Was any of them given? */
bool cli_extras_active(const cli_extras *x);

/* Do the cells of --goals and --region lie inside `grid`? False after the
** usage error "COMMAND: --goals: the cell (X,Y) lies outside the W x H map
** MAP (x 0..W-1, y 0..H-1)" -- the same rule as a start or goal outside. */
bool cli_extras_fit(const cli_extras *x, const astar_grid *grid, const char *command,
                    const char *map);

/* Build the objects they ask for on `grid` and run the search (sliced when
** --budget) into *sol, which keeps the knowledge (--fog) and the influence
** layer (--cone) the search planned on. False after a message only for
** set-up failures. */
bool cli_solve_extras(const cli_extras *x, const astar_grid *grid, const astar_options *opt,
                      astar_point start, astar_point goal, cli_solution *sol);

/* The options sol's search ran with: *opt = *base plus sol's knowledge and
** layer (layers[0] / weights[0] hold the layer: they must outlive *opt). */
void cli_extras_options(const cli_solution *sol, const astar_options *base, astar_options *opt,
                        const astar_layer *layers[1], float weights[1]);

/* ---- picture files (cmd_render.c) ------------------------------------------ */

/* Can files named like `out` be created or replaced? Checks the folder (and
** the file, when it exists) without creating anything; false after a
** message naming the file. */
bool cli_output_writable(const char *out);

/* FILE.png -> FILE-007.png for frame 7 when `many`, else FILE.png. */
void cli_frame_name(char *buf, size_t size, const char *out, size_t index, bool many);

/* ---- hex maps (hex_cli.c, hex_render.c) -------------------------------------
** A map whose header says `hex ...` (astar/hex.h) is searched by the engine
** on the hex grid as a space. solve and render parse their command line,
** then look at the map (cli_is_hex_map: the bytes are kept for the one read
** that loads it) and run the hex version with the options parsed for it. */

/* True if the file (or "-") holds a hex map; quiet when unreadable. */
bool cli_is_hex_map(const char *path);

/* Read and parse a hex map; errors as for cli_load_map. */
bool cli_load_hex_map(const char *path, astar_hex_grid **grid, astar_point *start,
                      astar_point *goal);

/* "pointy odd-r", ... */
const char *cli_hex_shape_name(const astar_hex_grid *grid);

/* "map:      LABEL (hex pointy odd-r, W x H, N open cells)" */
void cli_print_hex_map_line(FILE *out, const char *label, const astar_hex_grid *grid);

/* The engine's options over an astar_engine_options: --algo
** astar|dijkstra|greedy|bidir, --weight, --tie, --max-expansions (the basic
** group: what graphs take), --reopen, --partial (hex maps take all six). */
extern const cli_group cli_engine_group;
extern const cli_group cli_engine_basic_group;

/* solve on a hex map: the positionals MAP [SX SY GX GY] of a, the options
** parsed for it. Returns the exit status. The help page's texts. */
int cli_hex_solve(const cli_args *a, const astar_engine_options *eo,
                  const cli_landmark_settings *landmarks, int picture, const char *trace);
void cli_hex_solve_intro(FILE *out);
void cli_hex_solve_outro(FILE *out);

/* render on a hex map (hex_render.c): MAP [SX SY GX GY] of a, the options
** parsed for it (the picture's, as for square maps). */
typedef struct cli_render_args {
  const char *out; /* -o */
  uint64_t step;   /* --step K (given: have_step) */
  bool have_step;
  long frames; /* --frames N, 0: none */
  long cell;   /* --cell PX, 0: automatic */
  int fgh;     /* --fgh 1, --no-fgh 0, -1: automatic */
} cli_render_args;
int cli_hex_render(const cli_args *a, const cli_render_args *r, const astar_engine_options *eo);
void cli_hex_render_intro(FILE *out);
void cli_hex_render_outro(FILE *out);

/* One-line summary of the options ("algorithm astar, heuristic hex distance, ..."). */
void cli_hex_describe(FILE *out, const astar_engine_options *eo);

/* A workspace reserved for `space` (both halves with `backward`); NULL after
** a message. */
astar_workspace *cli_hex_workspace(const astar_space *space, bool backward);

/* One search on a hex grid into *sol (path as cells, result as a grid
** search's); landmarks > 0: with a landmark table of that many (choice an
** astar_landmark_choice) built first, reported as the preprocessing. False
** after a message only when set-up fails. */
bool cli_hex_run(const astar_hex_grid *grid, const astar_engine_options *eo, uint32_t landmarks,
                 int landmark_choice, astar_point start, astar_point goal, cli_solution *sol);

/* The map in ASCII with the path: two characters a cell, shoved rows
** indented (pointy) or shoved columns half a row lower (flat); a legend. */
void cli_hex_draw(FILE *out, const astar_hex_grid *grid, const astar_point *path, size_t n,
                  astar_point start, astar_point goal);

/* ---- graphs: solve --graph, bench --graph (cmd_graph.c) ----------------------
** A command line with --graph reads a DIMACS graph and searches it with the
** engine; node ids on the command line are the file's, 1 to N. */

typedef struct cli_graph_args {
  const char *gr;                  /* --graph */
  const char *co;                  /* --coords, or NULL */
  bool undirected;                 /* --undirected */
  int heuristic;                   /* --heuristic: auto, euclidean, octile, ... zero */
  double scale;                    /* --scale, or ASTAR_GRAPH_SCALE_AUTO */
  astar_engine_options eo;         /* --algo, --weight, --tie, --max-expansions */
  cli_landmark_settings landmarks; /* --landmarks K (count 0: none), --landmark-choice */
} cli_graph_args;

/* The defaults: no file, the auto heuristic, the engine's A*, no landmarks. */
void cli_graph_args_init(cli_graph_args *a);

/* --graph, --coords, --undirected, --heuristic, --scale. */
extern const cli_group cli_graph_group;

/* The sections of a command whose cli_graph_args is FIELD of TYPE. */
#define CLI_GRAPH_SECTIONS(TYPE, FIELD, KINDS)                                                     \
  {"Graph options:", &cli_graph_group, offsetof(TYPE, FIELD), (KINDS), NULL, false},               \
      {NULL,                                                                                       \
       &cli_engine_basic_group,                                                                    \
       offsetof(TYPE, FIELD) + offsetof(cli_graph_args, eo),                                       \
       (KINDS),                                                                                    \
       NULL,                                                                                       \
       false},                                                                                     \
  {                                                                                                \
    NULL, &cli_landmark_group, offsetof(TYPE, FIELD) + offsetof(cli_graph_args, landmarks),        \
        (KINDS), NULL, false                                                                       \
  }

/* solve --graph: the node ids S T are a's positionals. Exit status. */
int cli_graph_solve(const cli_graph_args *args, const cli_args *parsed);
void cli_graph_solve_intro(FILE *out);
void cli_graph_solve_outro(FILE *out);

/* bench --graph: the queries and the report. */
typedef struct cli_graph_bench_args {
  const char *queries; /* --queries FILE, or NULL */
  long random;         /* --random N, 0: none */
  uint64_t seed;       /* --seed */
  long repeat;         /* --repeat */
  bool check, json, quiet;
} cli_graph_bench_args;
int cli_graph_bench(const cli_graph_args *args, const cli_graph_bench_args *b,
                    const cli_args *parsed);
void cli_graph_bench_intro(FILE *out);
void cli_graph_bench_outro(FILE *out);

/* ---- navigation meshes: solve --mesh, bench --mesh (cmd_mesh.c) ------------------
** A command line with --mesh reads a navigation mesh (astar/mesh.h) and
** searches it with a mesh finder (Polyanya or the funnel); points are mesh
** coordinates, any finite numbers. */

typedef struct cli_mesh_args {
  const char *mesh;  /* --mesh FILE */
  int algo;          /* --algo: 0 polyanya, 1 funnel */
  const char *svg;   /* solve --svg FILE */
  bool nodes;        /* solve --nodes: the search's nodes in the picture */
  bool compare;      /* solve --compare: the other method too */
  bool json;         /* solve --json */
  const char *times; /* bench --times FILE: one CSV line per query */
} cli_mesh_args;

void cli_mesh_args_init(cli_mesh_args *a);

/* solve's rows (--mesh, --algo, --svg, --nodes, --compare, --json) and
** bench's (--mesh, --algo, --times); bench's own --check, --json, --repeat,
** --limit, --every, --warmup, --quiet apply too. */
extern const cli_group cli_mesh_solve_group, cli_mesh_bench_group;

/* solve --mesh: the points SX SY GX GY are a's positionals. Exit status. */
int cli_mesh_solve(const cli_mesh_args *args, const cli_args *parsed);
void cli_mesh_solve_intro(FILE *out);
void cli_mesh_solve_outro(FILE *out);

/* bench --mesh: the scenarios are a's positionals. */
typedef struct cli_mesh_bench_args {
  long repeat, limit, every, warmup; /* limit 0: all */
  bool check, json, quiet;
} cli_mesh_bench_args;
int cli_mesh_bench(const cli_mesh_args *args, const cli_mesh_bench_args *b, const cli_args *parsed);
void cli_mesh_bench_intro(FILE *out);
void cli_mesh_bench_outro(FILE *out);

/* ---- units bigger than one cell, terrain capabilities (unit.c) --------------- */

typedef struct cli_unit {
  bool active;                 /* --size or --capability given */
  int32_t size;                /* --size: side of the unit, 1 .. ASTAR_CLEARANCE_MAX */
  astar_capability capability; /* --capability: types it may enter */
  size_t fit;                  /* anchor cells where it fits (after cli_unit_grid) */
} cli_unit;

/* --size and --capability (the command sets `active` when either is given). */
extern const cli_group cli_unit_group;

/* Size 1, ground and swamp (the Moving AI rules), not active. */
void cli_unit_defaults(cli_unit *u);

/* Read the types of the map text[0 .. len-1] of file `path` (already
** parsed into `map`; the file is not read again), open in `map` the 'W' /
** 'T' cells the unit may enter, and build into *derived the grid of the
** anchor cells where the unit fits. False after a message. */
bool cli_unit_grid(cli_unit *u, const char *path, const char *text, size_t len, astar_grid *map,
                   astar_grid **derived);

/* "unit:     KxK, may enter LIST; N anchor cells fit" */
void cli_unit_describe(FILE *out, const cli_unit *u);

/* ---- the waypoint-table heuristic: solve / bench --heuristic-table (table.c) ---- */

typedef struct cli_table {
  int form;                    /* astar_table_form, or -1: no table */
  int32_t gap;                 /* --table-gap (doors), 0: not given */
  int32_t tile;                /* --table-tile (coarse grid), 0: not given */
  astar_waypoint_table *table; /* built by cli_table_build, NULL before */
  double seconds;              /* time the build took */
} cli_table;

/* --heuristic-table, --table-gap, --table-tile. */
extern const cli_group cli_table_group;
/* No table. */
void cli_table_defaults(cli_table *t);
/* Why these settings cannot run with `algo` (one sentence), or NULL. */
const char *cli_table_misuse(const cli_table *t, const cli_algo *algo);
/* With a table asked for: build it for `grid` under opt's moves and make
** opt's heuristic the table (ASTAR_H_CALLBACK). False after a message
** naming `map`. Without one: true, nothing done. */
bool cli_table_build(cli_table *t, const astar_grid *grid, astar_options *opt, const char *map);
/* "table:    FORM form, N waypoints (HOW), B bytes, built in T ms" when built. */
void cli_table_describe(FILE *out, const cli_table *t);
/* Release the table (the settings stay). */
void cli_table_free(cli_table *t);

/* ---- units walking on a changing map (sim_world.c) --------------------------
** `astar simulate` with --replan / --recompute / --walls / --doors. */
typedef struct cli_world_args {
  long agents, frames;     /* --agents N (1 .. 100000), --frames F (0: 20 x (w + h)) */
  int replan;              /* --replan: astar, splice, dstar */
  int recompute;           /* --recompute: every:N, change, waypoint, blocked */
  long every;              /* its N */
  long walls, wall_period; /* --walls, --wall-period */
  long doors, door_period; /* --doors, --door-period */
  long before, after;      /* --splice-before, --splice-after */
  double ratio;            /* --splice-ratio */
} cli_world_args;
extern const cli_group cli_world_group;
void cli_world_defaults(cli_world_args *w);
/* Run it on MAP; budget 0: the default, 1000000. Returns the exit status. */
int cli_simulate_world(const char *map, const cli_world_args *w, uint64_t budget, uint64_t seed,
                       const astar_options *opt);

#endif /* ASTAR_CLI_H */
