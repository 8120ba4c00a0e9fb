/*
** cmd_precompute.c -- `astar precompute MAP -o FILE`: build an algorithm's
** per-map preprocessing (JPS+ jump distances, landmarks, HPA*, the
** compressed path database, subgoal graphs) and save it, so that `astar
** bench --pre FILE` (or a program using astar_jps_plus_load) can skip the
** build.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpd_mpi.h"

typedef struct precompute_settings {
  astar_options opt;    /* the movement rules the file is built for */
  astar_options search; /* search options: refused by name */
  const char *output;
  const cli_algo *algo;
  cli_landmark_settings landmarks;
  astar_hpa_options hpa;
  uint64_t threads, memory_limit;
} precompute_settings;

static const cli_opt precompute_rows[] = {
    {.name = "--output",
     .alias = "-o",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(precompute_settings, output),
     .sample = "x.pre",
     .help = "where to write (required)"},
    {.name = "--method",
     .alias = "--algo",
     .meta = "NAME",
     .kind = CLI_CUSTOM,
     .off = offsetof(precompute_settings, algo),
     .parse = cli_pre_algo_parse,
     .range_fn = cli_pre_algo_range,
     .sample = "jps-plus",
     .help = "the preprocessing: %v\n"
             "(default jps-plus; the same as --algo NAME)"},
    {.name = "--threads",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(precompute_settings, threads),
     .min = 1,
     .max = 256,
     .algos = "cpd",
     .help = "cpd: build on N threads, %r (default 1); the file\n"
             "is the same for every N"},
    {.name = "--memory-limit",
     .meta = "BYTES",
     .kind = CLI_INT,
     CLI_AT(precompute_settings, memory_limit),
     .max = UINT64_MAX,
     .algos = "cpd",
     .help = "cpd: refuse to build when the memory needed would exceed\n"
             "BYTES (checked on an estimate before building, then as\n"
             "the table grows; shared between the threads); 0: none\n"
             "(default)"},
    CLI_HELP_ROW,
};
static const cli_group precompute_group = CLI_ROWS(precompute_rows);

/* Section 4: the search options, parsed to be refused by name. */
#define SEARCH_SECTION 4
static const cli_section precompute_sections[] = {
    {"Movement rules (as for solve and bench):", &cli_rules_group,
     offsetof(precompute_settings, opt), 0, NULL, false},
    {"Options:", &precompute_group, 0, 0, NULL, false},
    {"Landmarks (--method landmarks):", &cli_landmark_group,
     offsetof(precompute_settings, landmarks), 0, NULL, false},
    CLI_HPA_SECTION(precompute_settings, hpa, 0),
    {NULL, &cli_search_group, offsetof(precompute_settings, search), 0, NULL, true},
};

static void intro(FILE *out) {
  fputs("usage: astar precompute MAP -o FILE [--method NAME] [--moves 4|8]\n"
        "                         [--corner RULE] [--costs S,D] [--landmarks K]\n"
        "                         [--threads N] [--memory-limit BYTES] [--levels N]\n"
        "\n"
        "Build the preprocessing of an algorithm for MAP (a Moving AI .map or an\n"
        "ASCII map) and write it to FILE in the library's portable byte format.\n"
        "Prints the build time, the memory it takes, the bytes per map cell and the\n"
        "movement rules the file serves.\n"
        "The file is valid only for this map: loading it for another map fails.\n"
        "\n"
        "It is built for the movement rules below (the defaults: 8 moves, no-cut, costs\n"
        "1,sqrt 2) and valid for them alone: `solve` and `bench --pre FILE` with other\n"
        "--moves, --corner or --costs refuse it, saying what it was built for (exit 1).\n"
        "hpa and landmarks files record the rules; a jps-plus file serves every rule set\n"
        "JPS takes (8 moves, no-cut, any costs S <= D < 2S: its jumps do not depend on\n"
        "the costs); cpd takes the defaults only; a subgoal file records the costs\n"
        "(8 moves, no-cut, S <= D < 2S) and its --levels (0, the default: N-level).\n"
        "A method refuses rules it cannot honour (exit 2), saying why. A search option\n"
        "(--weight, --heuristic, ...) changes how a file is searched, not what it\n"
        "holds: precompute refuses it.\n",
        out);
}

static void outro(FILE *out) {
  fputs("cpd prints the passable cells, runs per row and run bytes per passable cell,\n"
        "and on a terminal a progress line on stderr (sources done, rate, time left).\n"
        "\n"
        "cpd over MPI: `mpirun -np P astar precompute MAP --method cpd -o FILE` builds\n"
        "the sources on P processes (each on --threads N threads; MAP readable by every\n"
        "one, --memory-limit per process); rank 0 gathers the rows and writes FILE, the\n"
        "same bytes as one process. Needs a tool built with MPI (`make mpi`, or CMake's\n"
        "-DASTAR_USE_MPI=ON); without it precompute --method cpd under mpirun with more\n"
        "than one process exits 2 and says how to get it (docs/scaling.md).\n"
        "\n"
        "FILE is written whole or not at all: a regular file through a temporary file\n"
        "beside it, renamed over FILE when complete (a failed write leaves FILE as it\n"
        "was); anything else (/dev/null, a FIFO) directly, and never removed.\n"
        "\n"
        "Exit status: 0 written, 1 unreadable/malformed map, a map the method cannot\n"
        "take (terrain for jps-plus, cpd or subgoal) or a write error, 2 usage error.\n",
        out);
}

static const cli_kind precompute_kinds[] = {{"map", "square maps", "astar precompute --help"}};
static const cli_page precompute_pages[] = {{CLI_KIND(0), NULL, intro, outro}};

const cli_spec cli_precompute_spec = {.command = "precompute",
                                      CLI_SECTIONS(precompute_sections),
                                      CLI_KINDS(precompute_kinds),
                                      CLI_PAGES(precompute_pages),
                                      .algo_option = "--method",
                                      .algo_kinds = CLI_KIND(0)};

int cli_cmd_precompute(int argc, char **argv) {
  precompute_settings set;
  memset(&set, 0, sizeof set);
  astar_options_init(&set.opt);
  astar_options_init(&set.search);
  set.algo = cli_find_algo("jps-plus");
  set.landmarks.count = 4;
  set.landmarks.choice = ASTAR_LANDMARKS_FARTHEST;
  cli_hpa_defaults(&set.hpa);
  set.threads = 1;
  cli_args a;
  const int prc = cli_parse(&a, &cli_precompute_spec, argc, argv, &set);
  if (prc >= 0) return prc;
  const char *search = cli_section_given(&a, SEARCH_SECTION);
  if (search)
    return cli_usage_error("precompute: %s is a search option: a file depends on the "
                           "movement rules alone (--moves, --corner, --costs); give it to "
                           "solve or bench",
                           search);
  if (a.npos > 1) return cli_usage_error("precompute: unexpected argument '%s'", a.pos[1]);
  const char *map = a.npos ? a.pos[0] : NULL, *output = set.output;
  const astar_options opt = set.opt;
  const cli_algo *algo = set.algo;
  /* --landmarks alone selects the landmarks. */
  if ((cli_given(&a, "--landmarks") || cli_given(&a, "--landmark-choice")) &&
      !cli_given(&a, "--method"))
    algo = cli_find_algo("landmarks");
  int rc = cli_check_algo(&a, algo->name);
  if (rc >= 0) return rc;
  cli_variant_settings variant;
  cli_variant_defaults(&variant);
  variant.landmarks = set.landmarks;
  cli_variant_use(&variant);
  cli_hpa_use(&set.hpa);
  rc = cli_levels_use(&a, algo, "precompute", &set.hpa);
  if (rc >= 0) return rc;
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("precompute: the movement rules are not valid together");
  /* Rules the method never takes: a usage error before the map is read. */
  const char *why = cli_algo_unsupported_options(algo, &opt);
  if (why) return cli_usage_error("precompute: --method %s: %s", algo->name, why);
  cli_cpd_set_build((unsigned)set.threads, set.memory_limit);
  if (!map) return cli_usage_error("precompute: missing MAP (see 'astar precompute --help')");
  if (!output)
    return cli_usage_error("precompute: missing -o FILE (see 'astar precompute --help')");

  /* --method cpd under mpirun: every rank from here on (cpd_mpi.h). */
  const int mpi_rc = cli_mpi_begin(strcmp(algo->name, "cpd") == 0);
  if (mpi_rc >= 0) return mpi_rc;
  astar_grid *grid = NULL;
  if (!cli_mpi_agree(cli_load_map(map, &grid, NULL, NULL), "cannot read MAP")) {
    astar_grid_free(grid);
    return cli_mpi_end(CLI_EXIT_FAIL);
  }
  const char *label = strcmp(map, "-") == 0 ? "(stdin)" : map;
  cli_prepared prep;
  /* Built only, no finder: under MPI a rank other than 0 holds no whole
  ** database (cpd_mpi.h), and saving needs none. */
  if (!cli_prepare_pre(&prep, algo, grid, &opt, label, NULL)) {
    astar_grid_free(grid);
    return cli_mpi_end(CLI_EXIT_FAIL);
  }
  if (!cli_mpi_root()) { /* rank 0 saves and reports */
    cli_prepared_free(&prep);
    astar_grid_free(grid);
    return cli_mpi_end(CLI_EXIT_OK);
  }
  rc = CLI_EXIT_FAIL;
  size_t len = 0;
  void *buf = NULL;
  astar_status st = algo->pre->save(prep.ctx, NULL, 0, &len);
  if (st == ASTAR_BUFFER_TOO_SMALL && (buf = malloc(len ? len : 1)) != NULL)
    st = algo->pre->save(prep.ctx, buf, len, &len);
  if (!buf)
    cli_error("out of memory");
  else if (st != ASTAR_OK)
    cli_error("%s: cannot save: %s", label, astar_strerror(st));
  else if (cli_write_file(output, buf, len))
    rc = CLI_EXIT_OK;
  if (rc == CLI_EXIT_OK) {
    const double cells = (double)astar_grid_width(grid) * (double)astar_grid_height(grid);
    cli_print_map_line(stdout, label, grid);
    char name[64];
    snprintf(name, sizeof name, "%s:", algo->name);
    printf("%-9s built in %.3f ms, %zu bytes in memory (%.2f bytes/cell)\n", name,
           prep.seconds * 1e3, prep.bytes, (double)prep.bytes / cells);
    printf("output:   %s, %zu bytes (%.2f bytes/cell)\n", output, len, (double)len / cells);
    char rules[128];
    cli_rules_text(rules, sizeof rules, &opt, false);
    if (strcmp(algo->name, "jps-plus") == 0)
      printf("rules:    8 moves, corners no-cut, any costs S <= D < 2S (the jumps do not depend "
             "on them)\n");
    else
      printf("rules:    %s (solve and bench --pre take the file with these only)\n", rules);
    if (strcmp(algo->name, "cpd") == 0) cli_cpd_report(stdout, prep.ctx);
    if (strcmp(algo->name, "subgoal") == 0) cli_subgoal_report(stdout, prep.ctx);
    cli_mpi_report(stdout);
  }
  free(buf);
  cli_prepared_free(&prep);
  astar_grid_free(grid);
  return cli_mpi_end(rc);
}
