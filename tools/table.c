/*
** table.c -- the waypoint-table heuristic (astar/waypoint_table.h) in
** `astar solve` and `astar bench`: --heuristic-table seed|bound with
** --table-gap W (waypoints at doors at most W cells wide) or --table-tile S
** (one per S x S tile); neither: the library's automatic choice. The
** table is built per map, after loading, and handed to A* as its callback
** heuristic.
*/
#include <string.h>

#include "cli.h"

static const char *const forms[] = {"bound", "seed", NULL};

static const cli_opt table_rows[] = {
    {.name = "--heuristic-table",
     .meta = "F",
     .kind = CLI_CHOICE,
     CLI_AT(cli_table, form),
     .names = forms,
     .help = "precompute the exact costs between waypoints and use\n"
             "them as the heuristic: bound (admissible, optimal\n"
             "paths) or seed (the seed's formula: cost of the path\n"
             "through the two nearest waypoints; fast, not optimal)"},
    {.name = "--table-gap",
     .meta = "W",
     .kind = CLI_INT,
     CLI_AT(cli_table, gap),
     .min = 1,
     .max = ASTAR_TABLE_MAX_GAP,
     .help = "waypoints at doors: one per gap at most W cells wide\n"
             "(%r; default: doors of width 2, or a coarse grid\n"
             "of 16 x 16 tiles on a map without doors)"},
    {.name = "--table-tile",
     .meta = "S",
     .kind = CLI_INT,
     CLI_AT(cli_table, tile),
     .min = 1,
     .max = ASTAR_GRID_MAX_SIDE,
     .help = "waypoints on a coarse grid: one per S x S tile\n"
             "(%r); not with --table-gap"},
};
const cli_group cli_table_group = CLI_ROWS(table_rows);

void cli_table_defaults(cli_table *t) {
  memset(t, 0, sizeof *t);
  t->form = -1;
}

const char *cli_table_misuse(const cli_table *t, const cli_algo *algo) {
  if (t->form < 0)
    return t->gap || t->tile ? "--table-gap and --table-tile need --heuristic-table seed|bound"
                             : NULL;
  if (t->gap && t->tile)
    return "--table-gap and --table-tile are two ways to choose waypoints: "
           "give one";
  if (strcmp(algo->name, "astar") != 0 || algo->engine)
    return "--heuristic-table is a heuristic for the grid's A*: it needs --algo astar";
  return NULL;
}

bool cli_table_build(cli_table *t, const astar_grid *grid, astar_options *opt, const char *map) {
  if (t->form < 0) return true;
  astar_waypoint_table_options wo;
  astar_waypoint_table_options_init(&wo);
  wo.form = (astar_table_form)t->form;
  if (t->gap) {
    wo.pick = ASTAR_TABLE_DOORS;
    wo.gap = t->gap;
  } else if (t->tile) {
    wo.pick = ASTAR_TABLE_COARSE;
    wo.tile = t->tile;
  }
  astar_waypoint_table_free(t->table);
  t->table = NULL;
  const double t0 = cli_now_seconds();
  const astar_status st = astar_waypoint_table_new(&t->table, grid, opt, &wo, NULL);
  t->seconds = cli_now_seconds() - t0;
  if (st != ASTAR_OK) {
    if (st == ASTAR_TOO_LARGE)
      cli_error("%s: --heuristic-table: more than %u waypoints (use a larger --table-tile)", map,
                (unsigned)wo.max_count);
    else
      cli_error("%s: --heuristic-table: %s", map, astar_strerror(st));
    return false;
  }
  opt->heuristic = ASTAR_H_CALLBACK;
  opt->heuristic_fn = astar_waypoint_table_heuristic;
  opt->heuristic_ctx = t->table;
  return true;
}

void cli_table_describe(FILE *out, const cli_table *t) {
  if (!t->table) return;
  fprintf(out, "table:    %s form, %u waypoints (%s), %zu bytes, built in %.1f ms\n",
          t->form == ASTAR_TABLE_SEED ? "seed" : "bound", astar_waypoint_table_count(t->table),
          t->gap    ? "doors"
          : t->tile ? "coarse grid"
                    : "automatic",
          astar_waypoint_table_memory(t->table), t->seconds * 1e3);
}

void cli_table_free(cli_table *t) {
  astar_waypoint_table_free(t->table);
  t->table = NULL;
}
