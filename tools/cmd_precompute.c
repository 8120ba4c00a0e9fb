/*
** cmd_precompute.c -- `astar precompute MAP -o FILE`: build an algorithm's
** per-map preprocessing (JPS+ jump distances, landmarks, HPA*, the
** compressed path database) and save it, so that `astar
** bench --pre FILE` (or a program using astar_jps_plus_load) can skip the
** build.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpd_mpi.h"

static void help(FILE *out) {
  fputs("usage: astar precompute MAP -o FILE [--method NAME] [--moves 4|8]\n"
        "                         [--corner RULE] [--costs S,D] [--landmarks K]\n"
        "                         [--threads N] [--memory-limit BYTES]\n"
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
        "the costs); cpd takes the defaults only. A method refuses rules it cannot\n"
        "honour (exit 2), saying why.\n"
        "\n"
        "Movement rules (as for solve and bench):\n",
        out);
  fputs(cli_rules_options_help, out);
  fputs("\n"
        "Options:\n"
        "  -o, --output FILE      where to write (required)\n"
        "  --method NAME          the preprocessing: jps-plus (default), landmarks, hpa or\n"
        "                         cpd (the same as --algo NAME)\n"
        "  --landmarks K          landmarks: K landmarks, 1..64 (default 4); selects\n"
        "                         --method landmarks\n"
        "  --landmark-choice C    landmarks: farthest (default) or avoid\n"
        "  --cluster N, --levels L, --no-smooth   hpa's settings (see 'astar bench --help')\n"
        "  --threads N            cpd: build on N threads, 1..256 (default 1); the file\n"
        "                         is the same for every N\n"
        "  --memory-limit BYTES   cpd: refuse to build when the memory needed would exceed\n"
        "                         BYTES (checked on an estimate before building, then as\n"
        "                         the table grows; shared between the threads); 0: none\n"
        "                         (default)\n"
        "  -h, --help             show this help\n"
        "\n"
        "cpd prints the passable cells, runs per row and run bytes per passable cell,\n"
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
        "take (terrain for jps-plus or cpd) or a write error, 2 usage error.\n",
        out);
}

int cli_cmd_precompute(int argc, char **argv) {
  cli_parser p;
  const char *map = NULL, *output = NULL;
  const cli_algo *algo = cli_find_algo("jps-plus");
  cli_variant_settings variant;
  cli_variant_defaults(&variant);
  uint64_t threads = 1, memory_limit = 0;
  bool cpd_given = false;
  astar_options opt; /* the movement rules the file is built for */
  astar_options_init(&opt);
  cli_parser_init(&p, argc, argv, "precompute");
  for (int kind, r; (kind = cli_next(&p)) != CLI_ARG_END;) {
    if (kind == CLI_ARG_POSITIONAL) {
      if (map) return cli_usage_error("precompute: unexpected argument '%s'", p.arg);
      map = p.arg;
    } else if (cli_is(&p, "--help", "-h")) {
      help(stdout);
      return CLI_EXIT_OK;
    } else if (cli_is(&p, "--output", "-o")) {
      if (!(output = cli_value(&p))) return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--threads", NULL)) {
      const char *v = cli_value(&p);
      if (!v || !cli_parse_uint(p.name, v, 1, 256, &threads)) return CLI_EXIT_USAGE;
      cpd_given = true;
    } else if (cli_is(&p, "--memory-limit", NULL)) {
      const char *v = cli_value(&p);
      if (!v || !cli_parse_u64(p.name, v, &memory_limit)) return CLI_EXIT_USAGE;
      cpd_given = true;
    } else if ((r = cli_rules_option(&p, &opt)) != 0 || (r = cli_hpa_option(&p)) != 0) {
      if (r < 0) return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--algo", NULL) || cli_is(&p, "--method", NULL)) {
      /* Only the algorithms with a preprocessing are methods here. */
      static const char *const methods[] = {"jps-plus", "landmarks", "hpa", "cpd", NULL};
      const char *v = cli_value(&p);
      int m;
      if (!v || !cli_parse_choice(p.name, v, methods, &m)) return CLI_EXIT_USAGE;
      algo = cli_find_algo(methods[m]);
    } else {
      r = cli_variant_option(&p, &variant);
      if (r < 0) return CLI_EXIT_USAGE;
      if (r == 0) {
        /* A search option (--weight, --heuristic, ...) changes how a file
        ** is searched, not what it holds: say so rather than "unknown". */
        astar_options scratch;
        astar_options_init(&scratch);
        r = cli_search_option(&p, &scratch);
        if (r < 0) return CLI_EXIT_USAGE;
        if (r == 0) return cli_unknown_option(&p);
        return cli_usage_error("precompute: %s is a search option: a file depends on the "
                               "movement rules alone (--moves, --corner, --costs); give it to "
                               "solve or bench",
                               p.name);
      }
    }
  }
  if (variant.given & CLI_VARIANT_LANDMARKS) {
    if (strcmp(algo->name, "jps-plus") == 0) algo = cli_find_algo("landmarks");
    const char *misuse = cli_variant_misuse(&variant, algo);
    if (misuse) return cli_usage_error("precompute: %s (got --method %s)", misuse, algo->name);
  }
  cli_variant_use(&variant);
  const char *hpa_misuse = cli_hpa_misuse(algo);
  if (hpa_misuse)
    return cli_usage_error("precompute: %s (got --method %s)", hpa_misuse, algo->name);
  if (cpd_given && strcmp(algo->name, "cpd") != 0)
    return cli_usage_error("precompute: --threads and --memory-limit are cpd's (got --method %s)",
                           algo->name);
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("precompute: the movement rules are not valid together");
  /* Rules the method never takes: a usage error before the map is read. */
  const char *why = cli_algo_unsupported_options(algo, &opt);
  if (why) return cli_usage_error("precompute: --method %s: %s", algo->name, why);
  cli_cpd_set_build((unsigned)threads, memory_limit);
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
  if (!cli_prepare(&prep, algo, grid, &opt, label, NULL)) {
    astar_grid_free(grid);
    return cli_mpi_end(CLI_EXIT_FAIL);
  }
  if (!cli_mpi_root()) { /* rank 0 saves and reports */
    cli_prepared_free(&prep);
    astar_grid_free(grid);
    return cli_mpi_end(CLI_EXIT_OK);
  }
  int rc = CLI_EXIT_FAIL;
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
    cli_mpi_report(stdout);
  }
  free(buf);
  cli_prepared_free(&prep);
  astar_grid_free(grid);
  return cli_mpi_end(rc);
}
