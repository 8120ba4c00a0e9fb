/*
** cmd_solve.c -- `astar solve MAP [SX SY GX GY]`: one path on a map file,
** printed as coordinates and, for maps up to 200 cells wide, as a picture.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PICTURE_MAX_WIDTH 200

static void help(FILE *out) {
  char algos[256];
  cli_algo_list(algos, sizeof algos);
  fprintf(out,
          "usage: astar solve MAP SX SY GX GY [OPTIONS]\n"
          "       astar solve MAP [OPTIONS]        (ASCII map with S and G cells)\n"
          "       astar solve MAP.hex ...          (a hex map: see astar solve MAP.hex --help)\n"
          "       astar solve --graph X.gr [--coords X.co] S T   (a DIMACS graph; see\n"
          "                                        'astar solve --graph x --help')\n"
          "\n"
          "Find one path from (SX,SY) to (GX,GY) on MAP (Moving AI .map or ASCII; `-`\n"
          "reads standard input). x is the column, y the row, (0,0) the top left.\n"
          "Prints the outcome, cost, length, search statistics, the path as\n"
          "(x,y) coordinates and, for maps up to %d cells wide, a picture.\n"
          "\n"
          "Options:\n"
          "  --algo NAME            search algorithm: %s (default astar)\n"
          "  --space grid|graph|waypoints\n"
          "                         grid (default): the grid's own loops; graph: the search\n"
          "                         engine on the grid as a space (greedy, bidir, ida, beam,\n"
          "                         dynamic, bandwidth, f2f, retarget: always); waypoints:\n"
          "                         any-angle paths over the waypoint graph of the\n"
          "                         obstacles' corners (prints the waypoints, the cells\n"
          "                         walked between them, and marks the waypoints 'o')\n"
          "  --any-angle NAME       theta, lazy-theta or anya: the same as --algo NAME\n"
          "  --smooth               straighten the path by string pulling (astar_path_smooth):\n"
          "                         print the bends and the cells walked between them; a\n"
          "                         line replaces a stretch only when it costs no more (its\n"
          "                         cells weighted by terrain, --cone layers and, with\n"
          "                         --fog, judged on what the searcher knows)\n"
          "  --pre FILE             load the preprocessing from FILE (made by `astar\n"
          "                         precompute`) instead of building it (jps-plus)\n"
          "  --picture / --no-picture  always / never draw the map\n"
          "  --trace FILE           write every search event to FILE as JSON Lines (`-`:\n"
          "                         standard output, instead of the report; astar only)\n"
          "  --encode NAME          also print the path encoded (astar/path.h) with NAME:\n"
          "                         positions, directions, turns, runs, variable, or all:\n"
          "                         its size in bytes and the bytes in hex (grid paths:\n"
          "                         not with --smooth or an any-angle algorithm)\n"
          "  -h, --help             show this help\n"
          "\n%s"
          "\n%s"
          "\n%s"
          "\n%s"
          "\n%s"
          "\n%s"
          "\n"
          "Exit status: 0 path found; 1 no path (a blocked start or goal included) or a\n"
          "failure at run time (an unreadable or malformed map); 2 usage error (a start,\n"
          "goal, --goals or --region cell outside the map included). See 'astar --help'.\n",
          PICTURE_MAX_WIDTH, algos, cli_search_options_help, cli_variant_options_help,
          cli_extras_help, cli_unit_help, cli_table_help, cli_hpa_options_help);
}

/* The map and, for a unit, the grid searched in its place. */
static void free_grids(astar_grid *map, astar_grid *searched) {
  if (searched != map) astar_grid_free(searched);
  astar_grid_free(map);
}

/* --encode: the path in one encoding (or all of them, encoding -1): one
** line each, "encoded:  NAME N bytes (B bytes/step): HEX". */
static bool print_encoded(FILE *out, const astar_point *path, size_t n, int encoding) {
  for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++) {
    if (encoding >= 0 && e != encoding) continue;
    size_t len = 0;
    astar_status st = astar_path_encode(path, n, (astar_path_encoding)e, NULL, 0, &len);
    unsigned char *buf = st == ASTAR_BUFFER_TOO_SMALL ? malloc(len) : NULL;
    if (buf)
      st = astar_path_encode(path, n, (astar_path_encoding)e, buf, len, &len);
    else if (st == ASTAR_BUFFER_TOO_SMALL)
      st = ASTAR_NO_MEMORY;
    /* OK without a buffer cannot happen: the header alone is 5 bytes. */
    if (st != ASTAR_OK || !buf) {
      free(buf);
      cli_error("--encode: %s", astar_strerror(st != ASTAR_OK ? st : ASTAR_INVALID_ARGUMENT));
      return false;
    }
    fprintf(out, "encoded:  %s %zu bytes (%.3f bytes/step): ",
            astar_path_encoding_name((astar_path_encoding)e), len,
            n > 1 ? (double)len / (double)(n - 1) : 0.0);
    for (size_t i = 0; i < len; i++) fprintf(out, "%02x", buf[i]);
    fputc('\n', out);
    free(buf);
  }
  return true;
}

int cli_cmd_solve(int argc, char **argv) {
  if (cli_wants_graph(argc, argv)) return cli_graph_solve(argc, argv);
  int hex_rc;
  if (cli_hex_dispatch(argc, argv, cli_hex_solve, &hex_rc)) return hex_rc;
  cli_parser p;
  astar_options opt;
  astar_options_init(&opt);
  const cli_algo *algo = cli_find_algo("astar");
  int picture = -1; /* -1: by width */
  const char *trace_path = NULL;
  const char *pre_file = NULL;
  bool graph = false;     /* --space graph */
  bool waypoints = false; /* --space waypoints */
  bool smooth = false;    /* --smooth */
  int encoding = -2;      /* --encode: an astar_path_encoding, -1 all, -2 none */
  cli_extras extras;
  memset(&extras, 0, sizeof extras);
  cli_variant_settings variant;
  cli_variant_defaults(&variant);
  cli_unit unit;
  cli_unit_defaults(&unit);
  cli_table table; /* --heuristic-table */
  cli_table_defaults(&table);
  extras.fog = -1;
  const char *pos[5];
  const char *pos_names[5] = {"MAP", "SX", "SY", "GX", "GY"};
  int npos = 0;

  cli_parser_init(&p, argc, argv, "solve");
  for (int kind; (kind = cli_next(&p)) != CLI_ARG_END;) {
    if (kind == CLI_ARG_POSITIONAL) {
      if (npos == 5) return cli_usage_error("solve: unexpected argument '%s'", p.arg);
      pos[npos++] = p.arg;
      continue;
    }
    int r = cli_search_option(&p, &opt);
    if (r == 0) r = cli_extra_option(&p, &extras);
    if (r == 0) r = cli_variant_option(&p, &variant);
    if (r == 0) r = cli_hpa_option(&p);
    if (r == 0) r = cli_unit_option(&p, &unit);
    if (r == 0) r = cli_table_option(&p, &table);
    if (r < 0) return CLI_EXIT_USAGE;
    if (r > 0) continue;
    if (cli_is(&p, "--help", "-h")) {
      help(stdout);
      return CLI_EXIT_OK;
    } else if (cli_is(&p, "--algo", NULL)) {
      const char *v = cli_value(&p);
      if (!v || !(algo = cli_find_algo(v))) return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--any-angle", NULL)) {
      if (!(algo = cli_any_angle_option(cli_value(&p)))) return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--picture", NULL) || cli_is(&p, "--no-picture", NULL)) {
      if (!cli_flag(&p)) return CLI_EXIT_USAGE;
      picture = cli_is(&p, "--picture", NULL);
    } else if (cli_is(&p, "--smooth", NULL)) {
      if (!cli_flag(&p)) return CLI_EXIT_USAGE;
      smooth = true;
    } else if (cli_is(&p, "--trace", NULL)) {
      if (!(trace_path = cli_value(&p))) return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--pre", NULL)) {
      if (!(pre_file = cli_value(&p))) return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--encode", NULL)) {
      static const char *const encodings[] = {"positions", "directions", "turns", "runs",
                                              "variable",  "all",        NULL};
      const char *v = cli_value(&p);
      if (!v || !cli_parse_choice(p.name, v, encodings, &encoding)) return CLI_EXIT_USAGE;
      if (encoding == ASTAR_PATH_ENCODING_COUNT) encoding = -1;
    } else if (cli_is(&p, "--space", NULL)) {
      static const char *const spaces[] = {"grid", "graph", "waypoints", NULL};
      int which;
      const char *v = cli_value(&p);
      if (!v || !cli_parse_choice(p.name, v, spaces, &which)) return CLI_EXIT_USAGE;
      graph = which == 1;
      waypoints = which == 2;
    } else {
      return cli_unknown_option(&p);
    }
  }
  if (npos != 1 && npos != 5)
    return cli_usage_error(npos == 0 ? "solve: missing MAP (see 'astar solve --help')"
                                     : "solve: expected MAP and four coordinates SX SY GX GY, "
                                       "or MAP alone (see 'astar solve --help')");
  int32_t c[4] = {0, 0, 0, 0};
  for (int i = 1; i < npos; i++)
    if (!cli_parse_cells(pos_names[i], NULL, pos[i], 1, &c[i - 1])) return CLI_EXIT_USAGE;
  if (graph && !(algo = cli_algo_on_graph(algo))) return CLI_EXIT_USAGE;
  if (waypoints && !(algo = cli_algo_on_waypoints(algo))) return CLI_EXIT_USAGE;
  /* Lines of sight on the unit's grid would let a big unit clip corners. */
  if (unit.size > 1 && (smooth || cli_algo_is_any_angle(algo)))
    return cli_usage_error("solve: --size %d needs grid moves: any-angle paths (--algo %s%s) "
                           "test lines of sight for a point, not for a %dx%d unit",
                           (int)unit.size, algo->name, smooth ? ", --smooth" : "", (int)unit.size,
                           (int)unit.size);
  if (smooth && cli_algo_is_any_angle(algo))
    return cli_usage_error("solve: --smooth straightens grid paths; --algo %s is any-angle already",
                           algo->name);
  if (encoding > -2 && (smooth || cli_algo_is_any_angle(algo)))
    return cli_usage_error("solve: --encode stores grid paths of unit steps, not the any-angle "
                           "paths of %s%s",
                           smooth      ? "--smooth"
                           : waypoints ? "--space waypoints"
                                       : "--algo ",
                           smooth || waypoints ? "" : algo->name);
  if (waypoints && pre_file)
    return cli_usage_error("solve: --pre: a waypoint graph is built from the map, not loaded");
  algo = cli_variant_algo(&variant, algo);
  const char *misuse = cli_variant_misuse(&variant, algo);
  if (misuse) return cli_usage_error("solve: %s (got --algo %s)", misuse, algo->name);
  if ((misuse = cli_table_misuse(&table, algo)) != NULL)
    return cli_usage_error("solve: %s", misuse);
  if ((misuse = cli_hpa_misuse(algo)))
    return cli_usage_error("solve: %s (got --algo %s)", misuse, algo->name);
  cli_variant_use(&variant);
  if (cli_extras_active(&extras) && (strcmp(algo->name, "astar") != 0 || algo->engine))
    return cli_usage_error("solve: the game-loop options need --algo astar");
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("solve: the search options are not valid together");
  if (trace_path && (strcmp(algo->name, "astar") != 0 || algo->engine))
    return cli_usage_error("--trace: needs --algo astar (the observer follows A* only)");
  if (pre_file && !algo->pre)
    return cli_usage_error("solve: --pre needs an algorithm with preprocessing (--algo jps-plus)");
  if (extras.fog < 0 && (opt.unknown != ASTAR_UNKNOWN_PASSABLE || opt.unknown_cost != 2.0))
    return cli_usage_error("solve: --unknown and --unknown-cost need --fog R (they say how the "
                           "searcher treats cells it has not seen)");
  const char *why = cli_algo_unsupported_options(algo, &opt);
  if (why) return cli_usage_error("solve: --algo %s: %s", algo->name, why);

  const char *path = pos[0];
  astar_grid *grid;
  astar_point s, g;
  /* Read once: a unit's terrain types come from the same text. */
  char *text;
  size_t text_len;
  if (!cli_read_map(path, &text, &text_len)) return CLI_EXIT_FAIL;
  if (!cli_parse_map(path, text, text_len, &grid, &s, &g)) {
    free(text);
    return CLI_EXIT_FAIL;
  }
  if (!unit.active) {
    free(text);
    text = NULL;
  }
  if (npos == 5) {
    s = (astar_point){c[0], c[1]};
    g = (astar_point){c[2], c[3]};
  } else if (s.x < 0 || g.x < 0) {
    astar_grid_free(grid);
    free(text);
    return cli_usage_error("solve: %s has no %s cell; give the coordinates SX SY GX GY", path,
                           s.x >= 0   ? "'G'"
                           : g.x >= 0 ? "'S'"
                                      : "'S' or 'G'");
  }
  /* Coordinates outside the map are a mistake on the command line. */
  for (int i = 0; i < 2; i++) {
    const astar_point pt = i ? g : s;
    if (!astar_grid_contains(grid, pt.x, pt.y)) {
      const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
      astar_grid_free(grid);
      free(text);
      return cli_usage_error("solve: the %s (%d,%d) lies outside the %d x %d map %s (x 0..%d, "
                             "y 0..%d)",
                             i ? "goal" : "start", (int)pt.x, (int)pt.y, (int)w, (int)h, path,
                             (int)w - 1, (int)h - 1);
    }
  }
  if (!cli_extras_fit(&extras, grid, "solve", path)) {
    astar_grid_free(grid);
    return CLI_EXIT_USAGE;
  }
  /* A unit: search the grid of the anchor cells where it fits; the picture
  ** shows the map. */
  astar_grid *map = grid;
  if (unit.active) {
    const bool fits = cli_unit_grid(&unit, path, text, text_len, map, &grid);
    free(text);
    if (!fits) {
      astar_grid_free(map);
      return CLI_EXIT_FAIL;
    }
  }
  if ((why = cli_algo_unsupported(algo, &opt, grid)) != NULL) {
    cli_error("%s: %s: %s", path, algo->name, why);
    free_grids(map, grid);
    return CLI_EXIT_FAIL;
  }
  /* The table is built for the grid searched (the unit's, for a unit). */
  if (!cli_table_build(&table, grid, &opt, path)) {
    free_grids(map, grid);
    return CLI_EXIT_FAIL;
  }

  cli_trace trace;
  if (trace_path) {
    if (!cli_trace_begin(&trace, trace_path, strcmp(path, "-") == 0 ? "(stdin)" : path, grid, s, g,
                         &opt, algo->name)) {
      cli_table_free(&table);
      free_grids(map, grid);
      return CLI_EXIT_FAIL;
    }
    opt.observer = cli_trace_event;
    opt.observer_ctx = &trace;
  }
  cli_solution sol;
  if (cli_extras_active(&extras) ? !cli_solve_extras(&extras, grid, &opt, s, g, &sol)
                                 : !cli_solve_once(algo, grid, &opt, s, g, path, pre_file, &sol)) {
    if (trace_path) cli_trace_abort(&trace);
    cli_table_free(&table);
    free_grids(map, grid);
    return CLI_EXIT_FAIL;
  }
  /* Smoothing and the report judge the path on what the search planned on:
  ** its fog and influence layer (--fog, --cone) besides the options. */
  astar_options planned;
  const astar_layer *planned_layers[1];
  float planned_weights[1];
  cli_extras_options(&sol, &opt, &planned, planned_layers, planned_weights);
  if (smooth && !cli_smooth_solution(&sol, grid, &planned)) {
    cli_solution_free(&sol);
    cli_table_free(&table);
    free_grids(map, grid);
    return CLI_EXIT_FAIL;
  }
  int rc = sol.status == ASTAR_OK ? CLI_EXIT_OK : CLI_EXIT_FAIL;
  if (trace_path && !cli_trace_end(&trace, &sol)) rc = CLI_EXIT_FAIL;
  if (trace_path && trace.to_stdout) {
    cli_solution_free(&sol);
    cli_table_free(&table);
    free_grids(map, grid);
    return rc; /* standard output holds the trace alone */
  }
  cli_print_map_line(stdout, strcmp(path, "-") == 0 ? "(stdin)" : path, map);
  fputs("options:  ", stdout);
  cli_describe_options(stdout, &opt);
  if (strcmp(algo->name, "astar") != 0) printf(", algorithm %s", algo->name);
  cli_variant_describe(stdout, &variant, algo);
  if (cli_algo_is_waypoints(algo)) fputs(", space waypoints", stdout);
  if (smooth) fputs(", smoothed", stdout);
  putchar('\n');
  cli_table_describe(stdout, &table);
  if (unit.active) cli_unit_describe(stdout, &unit);
  printf("query:    (%d,%d) -> (%d,%d)\n", (int)s.x, (int)s.y, (int)g.x, (int)g.y);
  const bool draw = picture == 1 || (picture == -1 && astar_grid_width(grid) <= PICTURE_MAX_WIDTH);
  const bool any_angle = smooth || cli_algo_is_any_angle(algo);
  if (cli_algo_is_anya(algo)) {
    cli_print_anya_solution(stdout, &sol);
  } else if (any_angle) {
    char what[96];
    snprintf(what, sizeof what, "any-angle, %s",
             smooth                        ? "the grid path string-pulled"
             : cli_algo_is_waypoints(algo) ? "over the waypoint graph"
                                           : algo->summary);
    cli_print_any_angle_solution(stdout, &sol, grid, &planned, s, g, draw, what);
  } else {
    cli_print_solution(stdout, &sol, true);
    if (encoding > -2 && sol.status == ASTAR_OK &&
        !print_encoded(stdout, sol.path, sol.len, encoding))
      rc = CLI_EXIT_FAIL;
  }
  if (!any_angle && !cli_algo_is_anya(algo) && draw) {
    cli_picture pic = {map, sol.path, sol.len, s, g, cli_want_color(stdout), true, NULL, 0};
    putchar('\n');
    cli_draw(stdout, &pic);
    cli_draw_legend(stdout, map);
  }
  cli_solution_free(&sol);
  cli_table_free(&table);
  free_grids(map, grid);
  return rc;
}
