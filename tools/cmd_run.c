/*
** cmd_run.c -- `astar run` (what `make run` calls): solve the built-in maps
** and draw them. First the classic tutorial example (seed 000: a 7 x 5 grid,
** a wall between start and goal, moves costing 10 and 14), then a larger
** hand-drawn map with rooms, a river and rough ground.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The larger map, in the plain ASCII format (astar/format.h): '#' walls,
** digits terrain costs (9 the river, 3 hills, 4 a swamp), S and G. */
static const char big_map[] =
    "; a keep of rooms (left), a river with one bridge, hills (3), a swamp (4)\n"
    "; and a walled yard (right) holding the goal\n"
    "############################################################\n"
    "#S.......#.........#.........999......................#....#\n"
    "#........#.........#..........999.......333...........#....#\n"
    "#........#.........#...........999....3333333.........#....#\n"
    "#..................#............999..333333333........#....#\n"
    "#........#.........#............999...3333333.........#....#\n"
    "#####.####.........#...........999......333...........#....#\n"
    "#........#####.#####..........999.....................#....#\n"
    "#........#....................999............##########....#\n"
    "#........#...................999.............#.............#\n"
    "#........#..................999..............#.....G.......#\n"
    "#........#.....#######......999..............#.............#\n"
    "#..............#.....#.......999.............#.............#\n"
    "#........#.....#.....#........999............#######.#######\n"
    "##########.....#.....#...................................4.#\n"
    "#..............##.####.........999.......444444.........44.#\n"
    "#...............................999.....44444444.......444.#\n"
    "#...............................999......444444.......4444.#\n"
    "#...............................999...................4444.#\n"
    "############################################################\n";

typedef struct run_settings {
  astar_options opt;
  int which; /* 0: both maps, 1: the tutorial's, 2: the larger one */
} run_settings;

static const cli_opt run_rows[] = {
    {.name = "--tutorial",
     .kind = CLI_FLAG,
     CLI_AT(run_settings, which),
     .set = 1,
     .help = "only the tutorial example"},
    {.name = "--big",
     .kind = CLI_FLAG,
     CLI_AT(run_settings, which),
     .set = 2,
     .help = "only the larger map"},
    CLI_HELP_ROW,
};
static const cli_group run_group = CLI_ROWS(run_rows);

static const cli_section run_sections[] = {
    {"Options:", &run_group, 0, 0, NULL, false},
    CLI_SEARCH_SECTIONS(run_settings, opt, 0),
};

static void intro(FILE *out) {
  fputs("usage: astar run [--tutorial | --big] [OPTIONS]\n"
        "\n"
        "Solve the built-in example maps and draw them with the path found:\n"
        "  1. the classic A* tutorial's example (seed 000): a 7 x 5 grid, start and goal\n"
        "     separated by a wall, straight moves costing 10 and diagonal moves 14,\n"
        "     newest-first ties (the tutorial's suggestion);\n"
        "  2. a larger 60 x 20 map with rooms, a river, hills and a swamp\n"
        "     (default options: costs 1 and sqrt 2).\n",
        out);
}

static void outro(FILE *out) {
  fputs("Search options given apply to both maps.\n", out);
}

static const cli_kind run_kinds[] = {{"maps", "the built-in maps", "astar run --help"}};
static const cli_page run_pages[] = {{CLI_KIND(0), NULL, intro, outro}};

const cli_spec cli_run_spec = {
    .command = "run", CLI_SECTIONS(run_sections), CLI_KINDS(run_kinds), CLI_PAGES(run_pages)};

/* Parse the command line onto `s`; called once per map so that each keeps
** its own defaults for the options the user did not give. Returns -1 to go
** on, or an exit status. */
static int parse_args(int argc, char **argv, run_settings *s) {
  cli_args a;
  const int rc = cli_parse(&a, &cli_run_spec, argc, argv, s);
  if (rc >= 0) return rc;
  if (a.npos > 0) return cli_usage_error("run: unexpected argument '%s'", a.pos[0]);
  if (astar_options_validate(&s->opt) != ASTAR_OK)
    return cli_usage_error("run: the search options are not valid together");
  return -1;
}

/* Solve and print one example: title, picture, outcome. */
static bool show(const char *title, const char *what, const astar_grid *grid,
                 const astar_options *opt, astar_point s, astar_point g, const char *note) {
  const cli_algo *algo = cli_find_algo("astar");
  cli_solution sol;
  if (!cli_solve_once(algo, grid, opt, s, g, "map", NULL, &sol)) return false;
  bool color = cli_want_color(stdout);
  printf("%s== %s ==%s\n", color ? "\033[1m" : "", title, color ? "\033[0m" : "");
  printf("%s\n", what);
  fputs("options:  ", stdout);
  cli_describe_options(stdout, opt);
  printf("\nquery:    S (%d,%d) -> G (%d,%d)   (x = column, y = row, (0,0) top left)\n\n", (int)s.x,
         (int)s.y, (int)g.x, (int)g.y);
  cli_picture pic = {grid, sol.path, sol.len, s, g, color, true, NULL, 0};
  cli_draw(stdout, &pic);
  cli_draw_legend(stdout, grid);
  putchar('\n');
  cli_print_solution(stdout, &sol, true);
  if (note && sol.status == ASTAR_OK) printf("%s\n", note);
  putchar('\n');
  cli_solution_free(&sol);
  return sol.status == ASTAR_OK;
}

static int run_tutorial(const astar_options *opt) {
  astar_grid *grid;
  if (astar_grid_new(&grid, 7, 5, NULL) != ASTAR_OK) {
    cli_error("cannot create the tutorial grid");
    return CLI_EXIT_FAIL;
  }
  for (int32_t y = 1; y <= 3; y++) astar_grid_set_passable(grid, 3, y, false);
  bool ok = show("1. The classic A* tutorial (seed 000): around a wall",
                 "What: a 7 x 5 grid; start S and goal G have a 3-cell wall between them.", grid,
                 opt, (astar_point){1, 2}, (astar_point){5, 2},
                 "answer:   the tutorial's figure 7: 2 diagonal (14) + 4 straight (10) moves = "
                 "68, no corner cut;\n"
                 "          the mirror path above the wall costs the same (try --tie larger-g).");
  astar_grid_free(grid);
  return ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

static int run_big(const astar_options *opt) {
  astar_grid *grid;
  astar_point s, g;
  astar_parse_error err;
  astar_status st = astar_ascii_parse_map(&grid, big_map, sizeof big_map - 1, NULL, &s, &g, &err);
  if (st != ASTAR_OK) {
    cli_report_parse_error("(built-in map)", st, &err);
    return CLI_EXIT_FAIL;
  }
  bool ok = show("2. A larger map: rooms, a river, hills and a swamp",
                 "What: a 60 x 20 hand-drawn map; entering a digit cell costs that many times "
                 "the move.",
                 grid, opt, s, g,
                 "answer:   the cheapest path leaves the keep by its doors, crosses the river "
                 "(9) on the bridge\n"
                 "          and enters the yard by its gate.");
  astar_grid_free(grid);
  return ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

int cli_cmd_run(int argc, char **argv) {
  /* The tutorial's settings: costs 10/14, no corner cutting, and on equal F
  ** "the square added to the open list last" -- which finds its figure 7
  ** path. (Its Manhattan h finds the mirror path above the wall.) */
  run_settings tutorial = {0}, big = {0};
  astar_options_init(&tutorial.opt);
  tutorial.opt.straight_cost = 10;
  tutorial.opt.diagonal_cost = 14;
  tutorial.opt.tie = ASTAR_TIE_NEWEST;
  astar_options_init(&big.opt);
  int rc;
  if ((rc = parse_args(argc, argv, &tutorial)) >= 0) return rc;
  if ((rc = parse_args(argc, argv, &big)) >= 0) return rc;
  rc = CLI_EXIT_OK;
  if (big.which != 2 && run_tutorial(&tutorial.opt) != CLI_EXIT_OK) rc = CLI_EXIT_FAIL;
  if (big.which != 1 && run_big(&big.opt) != CLI_EXIT_OK) rc = CLI_EXIT_FAIL;
  return rc;
}
