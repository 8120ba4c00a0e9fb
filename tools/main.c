/*
** main.c -- entry point of the astar tool: the command table, `astar --help`,
** `astar --version`, `astar --man` (the manual page, man.c) and dispatch. A
** new command is one line in `commands` plus its cmd_*.c file with its
** option table (opts.h); its --help pages go into the manual page by
** themselves.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_command commands[] = {
    {"run", "solve the built-in example maps and draw them (what `make run` shows)", cli_cmd_run,
     &cli_run_spec},
    {"solve", "find one path on a map file, print it and draw it", cli_cmd_solve, &cli_solve_spec},
    {"bench", "run Moving AI .scen queries, check optimal lengths, time the searches",
     cli_cmd_bench, &cli_bench_spec},
    {"precompute", "build and save a map's preprocessing: jps-plus, landmarks, hpa, cpd or subgoal",
     cli_cmd_precompute, &cli_precompute_spec},
    {"simulate", "queue many agents' path requests over frames under a budget", cli_cmd_simulate,
     &cli_simulate_spec},
    {"group", "many units, one goal: a distance field against one search per unit", cli_cmd_group,
     &cli_group_spec},
    {"render", "draw what A* did (open/closed, F/G/H, parents) as SVG or PNG", cli_cmd_render,
     &cli_render_spec},
    {"convert", "write a grid map as a DIMACS graph (.gr, .co, .p2p queries)", cli_cmd_convert,
     &cli_convert_spec},
    {"mapf", "many agents, no collisions: solve or check a multi-agent instance", cli_cmd_mapf,
     &cli_mapf_spec},
    {"mesh", "build a navigation mesh from a grid or polygon map (solve/bench --mesh search it)",
     cli_cmd_mesh, &cli_mesh_spec},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_help(FILE *out) {
  fputs("usage: astar COMMAND [ARGS...] [OPTIONS]\n"
        "       astar COMMAND --help\n"
        "\n"
        "A* pathfinding on grid maps (libastar).\n"
        "\n"
        "Commands:\n",
        out);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fputs("\n"
        "Options:\n"
        "  -h, --help     show this help (or `astar help COMMAND`)\n"
        "  --version      show the version\n"
        "  --man          print this help and every command's as the manual page\n"
        "                 astar(1), in roff (`make install` installs it)\n"
        "\n"
        "Options are written `--name value` or `--name=value`; `--` ends them.\n"
        "Maps are Moving AI .map files or plain ASCII (`.` open, `#` blocked, `1`-`9`\n"
        "terrain cost, `S` start, `G` goal); `-` reads a map from standard input.\n"
        "\n",
        out);
  fputs(cli_exit_status_help, out);
}

static const cli_command *find_command(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < NCOMMANDS && used < sizeof list; i++)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                               commands[i].name);
    return cli_usage_error("missing command: one of %s (see 'astar --help')", list);
  }
  const char *name = argv[1];
  if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
    print_help(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(name, "--man") == 0) return cli_print_man(stdout, commands, NCOMMANDS, print_help);
  if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
    printf("astar %s (libastar %s)\n", ASTAR_VERSION_STRING, astar_version());
    return CLI_EXIT_OK;
  }
  if (strcmp(name, "help") == 0) {
    if (argc < 3) {
      print_help(stdout);
      return CLI_EXIT_OK;
    }
    const cli_command *c = find_command(argv[2]);
    if (!c) return cli_usage_error("unknown command '%s' (see 'astar --help')", argv[2]);
    char help[] = "--help";
    char *args[] = {argv[2], help, NULL};
    return c->run(2, args);
  }
  const cli_command *c = find_command(name);
  if (!c) {
    if (name[0] == '-') return cli_usage_error("unknown option '%s' (see 'astar --help')", name);
    return cli_usage_error("unknown command '%s' (see 'astar --help')", name);
  }
  return c->run(argc - 1, argv + 1);
}

/* A command's output that could not be written (full disk, closed pipe or
** terminal) is a failure, whatever the command returned: flushed and
** checked here, once for every command. */
int main(int argc, char **argv) {
  int rc = dispatch(argc, argv);
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "astar: error writing standard output: %s\n", strerror(errno ? errno : EIO));
    if (rc == CLI_EXIT_OK) rc = 1;
  }
  return rc;
}
