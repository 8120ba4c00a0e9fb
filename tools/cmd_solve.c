/*
** cmd_solve.c -- `astar solve MAP [SX SY GX GY]`: one path on a map file,
** printed as coordinates and, for maps up to 200 cells wide, as a picture.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PICTURE_MAX_WIDTH 200

typedef struct solve_settings {
  /* square maps */
  astar_options opt;
  const cli_algo *algo;
  int space;         /* --space: 0 grid, 1 graph, 2 waypoints */
  bool smooth;       /* --smooth */
  const char *pre;   /* --pre FILE */
  int encoding;      /* --encode: an astar_path_encoding, -1 all, -2 none */
  cli_extras extras; /* the game-loop options */
  cli_variant_settings variant;
  cli_unit unit;
  cli_table table;
  astar_hpa_options hpa;
  /* square and hex maps */
  int picture;       /* -1: by width */
  const char *trace; /* --trace FILE */
  /* hex maps */
  astar_engine_options eo;
  cli_landmark_settings hex_landmarks;
  /* graphs */
  cli_graph_args graph;
  /* navigation meshes */
  cli_mesh_args mesh;
} solve_settings;

enum { SQUARE, HEX, GRAPH, MESH };
#define SQ CLI_KIND(SQUARE)

static const char *const spaces[] = {"grid", "graph", "waypoints", NULL};
static const char *const encodings[] = {"positions", "directions", "turns", "runs",
                                        "variable",  "all",        NULL};
static const int encoding_values[] = {0, 1, 2, 3, 4, -1};

static const cli_opt solve_rows[] = {
    CLI_ALGO_ROW(solve_settings, algo, SQ),
    {.name = "--space",
     .meta = "grid|graph|waypoints",
     .kind = CLI_CHOICE,
     CLI_AT(solve_settings, space),
     .names = spaces,
     .kinds = SQ,
     .help = "grid (default): the grid's own loops; graph: the search\n"
             "engine on the grid as a space (greedy, bidir, ida, beam,\n"
             "dynamic, bandwidth, f2f, retarget: always); waypoints:\n"
             "any-angle paths over the waypoint graph of the\n"
             "obstacles' corners (prints the waypoints, the cells\n"
             "walked between them, and marks the waypoints 'o')"},
    CLI_ANY_ANGLE_ROW(solve_settings, algo, SQ),
    {.name = "--smooth",
     .kind = CLI_FLAG,
     CLI_AT(solve_settings, smooth),
     .kinds = SQ,
     .help = "straighten the path by string pulling (astar_path_smooth):\n"
             "print the bends and the cells walked between them; a\n"
             "line replaces a stretch only when it costs no more (its\n"
             "cells weighted by terrain, --cone layers and, with\n"
             "--fog, judged on what the searcher knows)"},
    {.name = "--pre",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(solve_settings, pre),
     .kinds = SQ,
     .help = "load the preprocessing from FILE (made by `astar\n"
             "precompute`) instead of building it (jps-plus)"},
    {.name = "--picture",
     .kind = CLI_FLAG,
     CLI_AT(solve_settings, picture),
     .set = 1,
     .kinds = SQ | CLI_KIND(HEX),
     .display = "--picture / --no-picture",
     .help = "always / never draw the map"},
    {.name = "--no-picture",
     .kind = CLI_FLAG,
     CLI_AT(solve_settings, picture),
     .set = CLI_OFF,
     .kinds = SQ | CLI_KIND(HEX),
     .flags = CLI_HIDDEN,
     .help = "never draw the map"},
    {.name = "--trace",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(solve_settings, trace),
     .kinds = SQ | CLI_KIND(HEX),
     .sample = "x.jsonl",
     .help = "write every search event to FILE as JSON Lines (`-`:\n"
             "standard output, instead of the report; square maps:\n"
             "the methods that report their events -- astar, landmarks,\n"
             "dijkstra, jps, jps-plus, theta, lazy-theta)"},
    {.name = "--encode",
     .meta = "NAME",
     .kind = CLI_CHOICE,
     CLI_AT(solve_settings, encoding),
     .names = encodings,
     .values = encoding_values,
     .kinds = SQ,
     .help = "also print the path encoded (astar/path.h) with NAME:\n"
             "positions, directions, turns, runs, variable, or all:\n"
             "its size in bytes and the bytes in hex (grid paths:\n"
             "not with --smooth or an any-angle algorithm)"},
    CLI_HELP_ROW,
};
static const cli_group solve_group = CLI_ROWS(solve_rows);

static const cli_section solve_sections[] = {
    {"Options:", &solve_group, 0, 0, NULL, false},
    CLI_SEARCH_SECTIONS(solve_settings, opt, SQ),
    CLI_VARIANT_SECTIONS(solve_settings, variant, SQ),
    {"Game-loop options:", &cli_extras_group, offsetof(solve_settings, extras), SQ, NULL, false},
    {"Unit options:", &cli_unit_group, offsetof(solve_settings, unit), SQ, NULL, false},
    {"Waypoint table (Patel 2.4.1; astar/waypoint_table.h; --algo astar only):", &cli_table_group,
     offsetof(solve_settings, table), SQ, NULL, false},
    CLI_HPA_SECTION(solve_settings, hpa, SQ),
    {"Search options on hex maps (the search engine on the map as a space):", &cli_engine_group,
     offsetof(solve_settings, eo), CLI_KIND(HEX), NULL, false},
    {NULL, &cli_landmark_group, offsetof(solve_settings, hex_landmarks), CLI_KIND(HEX),
     "The heuristic is the hex distance times the map's cheapest terrain.\n", false},
    CLI_GRAPH_SECTIONS(solve_settings, graph, CLI_KIND(GRAPH)),
    {"Mesh options:", &cli_mesh_solve_group, offsetof(solve_settings, mesh), CLI_KIND(MESH), NULL,
     false},
};

static void intro(FILE *out) {
  fprintf(out,
          "usage: astar solve MAP SX SY GX GY [OPTIONS]\n"
          "       astar solve MAP [OPTIONS]        (ASCII map with S and G cells)\n"
          "       astar solve MAP.hex ...          (a hex map: see astar solve MAP.hex --help)\n"
          "       astar solve --graph X.gr [--coords X.co] S T   (a DIMACS graph; see\n"
          "                                        'astar solve --graph X.gr --help')\n"
          "       astar solve --mesh X.mesh SX SY GX GY   (a navigation mesh; see\n"
          "                                        'astar solve --mesh X.mesh --help')\n"
          "\n"
          "Find one path from (SX,SY) to (GX,GY) on MAP (Moving AI .map or ASCII; `-`\n"
          "reads standard input). x is the column, y the row, (0,0) the top left.\n"
          "Prints the outcome, cost, length, search statistics, the path as\n"
          "(x,y) coordinates and, for maps up to %d cells wide, a picture.\n",
          PICTURE_MAX_WIDTH);
}

static void outro(FILE *out) {
  fputs("Exit status: 0 path found; 1 no path (a blocked start or goal included) or a\n"
        "failure at run time (an unreadable or malformed map); 2 usage error (a start,\n"
        "goal, --goals or --region cell outside the map included). See 'astar --help'.\n",
        out);
}

/* --graph decides, then the map: a hex map's options are the engine's. */
static int solve_kind(const cli_args *a) {
  if (cli_seen(a, "--graph")) return GRAPH;
  if (cli_seen(a, "--mesh")) return MESH;
  return a->npos > 0 && cli_is_hex_map(a->pos[0]) ? HEX : SQUARE;
}

static const cli_kind solve_kinds[] = {
    {"square", "square maps", "astar solve --help"},
    {"hex", "hex maps", "astar solve MAP.hex --help"},
    {"graph", "graphs (--graph)", "astar solve --graph X.gr --help"},
    {"mesh", "navigation meshes (--mesh)", "astar solve --mesh X.mesh --help"},
};
static const cli_page solve_pages[] = {
    {SQ, NULL, intro, outro},
    {CLI_KIND(HEX), "astar solve MAP.hex", cli_hex_solve_intro, cli_hex_solve_outro},
    {CLI_KIND(GRAPH), "astar solve --graph", cli_graph_solve_intro, cli_graph_solve_outro},
    {CLI_KIND(MESH), "astar solve --mesh", cli_mesh_solve_intro, cli_mesh_solve_outro},
};

const cli_spec cli_solve_spec = {.command = "solve",
                                 CLI_SECTIONS(solve_sections),
                                 CLI_KINDS(solve_kinds),
                                 CLI_PAGES(solve_pages),
                                 .kind_of = solve_kind,
                                 .algo_option = "--algo",
                                 .algo_kinds = SQ};

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
  solve_settings set;
  memset(&set, 0, sizeof set);
  astar_options_init(&set.opt);
  set.algo = cli_find_algo("astar");
  set.encoding = -2;
  set.extras.fog = -1;
  cli_variant_defaults(&set.variant);
  cli_unit_defaults(&set.unit);
  cli_table_defaults(&set.table);
  cli_hpa_defaults(&set.hpa);
  set.picture = -1;
  astar_engine_options_init(&set.eo);
  set.hex_landmarks.choice = ASTAR_LANDMARKS_FARTHEST;
  cli_graph_args_init(&set.graph);
  cli_mesh_args_init(&set.mesh);
  cli_args a;
  const int prc = cli_parse(&a, &cli_solve_spec, argc, argv, &set);
  if (prc >= 0) return prc;
  if (a.kind == GRAPH) return cli_graph_solve(&set.graph, &a);
  if (a.kind == MESH) return cli_mesh_solve(&set.mesh, &a);
  if (a.kind == HEX) return cli_hex_solve(&a, &set.eo, &set.hex_landmarks, set.picture, set.trace);

  astar_options opt = set.opt;
  const cli_algo *algo = set.algo;
  const int picture = set.picture, encoding = set.encoding;
  const char *trace_path = set.trace, *pre_file = set.pre;
  const bool graph = set.space == 1, waypoints = set.space == 2, smooth = set.smooth;
  cli_extras extras = set.extras;
  cli_variant_settings variant = set.variant;
  cli_unit unit = set.unit;
  unit.active = cli_given(&a, "--size") || cli_given(&a, "--capability");
  cli_table table = set.table;
  const char *const *pos = a.pos;
  const char *pos_names[5] = {"MAP", "SX", "SY", "GX", "GY"};
  const int npos = a.npos;
  if (npos > 5) return cli_usage_error("solve: unexpected argument '%s'", pos[5]);
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
  algo = cli_variant_algo(&a, algo);
  int rc = cli_check_algo(&a, algo->name);
  if (rc >= 0) return rc;
  const char *misuse = cli_table_misuse(&table, algo);
  if (misuse) return cli_usage_error("solve: %s", misuse);
  cli_variant_use(&variant);
  cli_hpa_use(&set.hpa);
  rc = cli_levels_use(&a, algo, "solve", &set.hpa);
  if (rc >= 0) return rc;
  if (cli_extras_active(&extras) && (strcmp(algo->name, "astar") != 0 || algo->engine)) {
    /* The library says why for what a finder's options hold (fog, cones,
    ** islands: stood in for, only their presence is looked at); the rest
    ** (--budget, --goals, --region, --refine) are the grid A*'s calls. */
    static const char standin[1];
    astar_options o = opt;
    if (extras.fog >= 0) o.knowledge = (const astar_knowledge *)(const void *)standin;
    if (extras.ncones) o.nlayers = 1;
    if (extras.islands || extras.retarget) o.islands = (const astar_islands *)(const void *)standin;
    const char *why = cli_algo_unsupported_options(algo, &o);
    if (why) return cli_usage_error("solve: --algo %s: %s", algo->name, why);
    return cli_usage_error("solve: the game-loop options need --algo astar");
  }
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("solve: the search options are not valid together");
  if (trace_path && !cli_algo_reports_events(algo)) {
    astar_options o = opt;
    o.observer = cli_trace_event;
    const char *why = cli_algo_unsupported_options(algo, &o);
    return cli_usage_error("--trace: --algo %s: %s", algo->name,
                           why ? why : "it reports no search events (--algo astar does)");
  }
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
    /* A map the method cannot search (the options alone were checked
    ** above: exit 2): the exit-status table's 1. */
    cli_error("%s: --algo %s: %s", path, algo->name, why);
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
  rc = sol.status == ASTAR_OK ? CLI_EXIT_OK : CLI_EXIT_FAIL;
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
