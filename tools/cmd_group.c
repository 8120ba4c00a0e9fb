/*
** cmd_group.c -- `astar group MAP GX GY --units N`: group movement (Patel
** 3.4.3). N units on random cells that can reach the goal get their paths
** from one distance field (astar/field.h), and the same N paths are also
** searched one by one with --algo's method (A* by default: a finder
** prepared once, the searches as one batch on one worker, astar/batch.h);
** prints both times, the speed-up and checks every cost: equal to the
** field's for an optimal method, never below it for the others.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct group_settings {
  astar_options opt;
  long units, seed;
  const cli_algo *algo;
  cli_variant_settings variant; /* --width, --epsilon, --band-e, --band-d, --landmarks */
} group_settings;

static const cli_opt group_rows[] = {
    {.name = "--units",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(group_settings, units),
     .min = 1,
     .max = 1000000,
     .help = "number of units, %r (default 100)"},
    {.name = "--seed",
     .meta = "S",
     .kind = CLI_INT,
     CLI_AT(group_settings, seed),
     .max = 2147483647,
     .help = "random placement seed (default 1)"},
    CLI_ALGO_ROW(group_settings, algo, 0),
    CLI_HELP_ROW,
};
static const cli_group group_group = CLI_ROWS(group_rows);

static const cli_section group_sections[] = {
    {"Options:", &group_group, 0, 0, NULL, false},
    CLI_SEARCH_SECTIONS(group_settings, opt, 0),
    CLI_VARIANT_SECTIONS(group_settings, variant, 0),
};

static void intro(FILE *out) {
  fputs("usage: astar group MAP GX GY [--units N] [--seed S] [OPTIONS]\n"
        "\n"
        "Group movement: N units (default 100) placed at random on cells that can\n"
        "reach the goal (GX,GY) all need a path to it. Builds one distance field from\n"
        "the goal (a reverse Dijkstra flood) and reads every unit's path from it, then\n"
        "runs N separate searches of --algo (A* by default) for comparison. Prints the\n"
        "times, the speed-up and whether all costs agree: equal to the field's for the\n"
        "optimal methods, never below them for the others (greedy, beam, hpa, ...).\n"
        "The any-angle methods (theta, lazy-theta, anya) are refused: their costs are\n"
        "not those of grid paths.\n",
        out);
}

static void outro(FILE *out) {
  fputs("Exit status: 0 done and all costs agree; 1 a failure at run time (a blocked\n"
        "goal, or a map --algo cannot search, included) or a disagreement; 2 usage\n"
        "error (a goal outside the map, or options --algo cannot honour, included).\n"
        "See 'astar --help'.\n",
        out);
}

static const cli_kind group_kinds[] = {{"map", "square maps", "astar group --help"}};
static const cli_page group_pages[] = {{CLI_KIND(0), NULL, intro, outro}};

const cli_spec cli_group_spec = {.command = "group",
                                 CLI_SECTIONS(group_sections),
                                 CLI_KINDS(group_kinds),
                                 CLI_PAGES(group_pages)};

static uint64_t next_random(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int cli_cmd_group(int argc, char **argv) {
  group_settings set = {.units = 100, .seed = 1, .algo = cli_find_algo("astar")};
  astar_options_init(&set.opt);
  cli_variant_defaults(&set.variant);
  cli_args a;
  const int prc = cli_parse(&a, &cli_group_spec, argc, argv, &set);
  if (prc >= 0) return prc;
  const astar_options opt = set.opt;
  const long units = set.units, seed = set.seed;
  const char *const *pos = a.pos;
  const int npos = a.npos;
  if (npos > 3) return cli_usage_error("group: unexpected argument '%s'", pos[3]);
  if (npos != 3) return cli_usage_error("group: expected MAP GX GY (see 'astar group --help')");
  int32_t gx, gy;
  if (!cli_parse_cells("GX", NULL, pos[1], 1, &gx) || !cli_parse_cells("GY", NULL, pos[2], 1, &gy))
    return CLI_EXIT_USAGE;
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("group: the search options are not valid together");
  const cli_algo *algo = cli_variant_algo(&a, set.algo);
  const int crc = cli_check_algo(&a, algo->name);
  if (crc >= 0) return crc;
  cli_variant_use(&set.variant);
  if (cli_algo_is_any_angle(algo))
    return cli_usage_error("group: --algo %s is any-angle: its costs are not those of the "
                           "field's grid paths (a grid method: astar, jps, hpa, ...)",
                           algo->name);
  const char *why = cli_algo_unsupported_options(algo, &opt);
  if (why) return cli_usage_error("group: --algo %s: %s", algo->name, why);
  const astar_method_info *info = astar_method_info_of(algo->method);
  const bool optimal = info && (info->flags & ASTAR_MF_OPTIMAL) && opt.weight <= 1.0;

  astar_grid *grid;
  astar_point s0, g0;
  if (!cli_load_map(pos[0], &grid, &s0, &g0)) return CLI_EXIT_FAIL;
  const astar_point goal = {gx, gy};
  /* A goal outside the map is a mistake on the command line, as in solve. */
  if (!astar_grid_contains(grid, gx, gy)) {
    const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
    cli_usage_error("group: the goal (%d,%d) lies outside the %d x %d map %s (x 0..%d, y 0..%d)",
                    (int)gx, (int)gy, (int)w, (int)h, pos[0], (int)w - 1, (int)h - 1);
    astar_grid_free(grid);
    return CLI_EXIT_USAGE;
  }
  if ((why = cli_algo_unsupported(algo, &opt, grid)) != NULL) {
    cli_error("group: %s: --algo %s: %s", pos[0], algo->name, why); /* the map's: exit 1 */
    astar_grid_free(grid);
    return CLI_EXIT_FAIL;
  }
  int rc = CLI_EXIT_FAIL;
  cli_prepared prep = {0};
  astar_batch *batch = NULL;
  astar_query *queries = NULL;
  astar_path_result *found = NULL;
  astar_islands *isl = NULL;
  astar_field *field = NULL;
  astar_workspace *ws = NULL;
  astar_point *starts = malloc((size_t)units * sizeof *starts);
  const size_t cap = astar_grid_count_passable(grid) + 1;
  astar_point *path = malloc(cap * sizeof *path);
  double *cost = malloc((size_t)units * sizeof *cost);
  astar_status st = astar_islands_new(&isl, grid, &opt, NULL);
  if (st == ASTAR_OK) st = astar_workspace_new(&ws, grid, NULL);
  if (st != ASTAR_OK || !starts || !path || !cost) {
    cli_error("%s: %s", pos[0], astar_strerror(st != ASTAR_OK ? st : ASTAR_NO_MEMORY));
    goto done;
  }
  const uint32_t island = astar_islands_id(isl, goal.x, goal.y);
  if (island == 0) {
    cli_error("group: the goal cell (%d,%d) is blocked", (int)gx, (int)gy);
    goto done;
  }
  uint64_t rs = (uint64_t)seed;
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  for (long i = 0; i < units;) {
    const astar_point c = {(int32_t)(next_random(&rs) % (uint64_t)w),
                           (int32_t)(next_random(&rs) % (uint64_t)h)};
    if (astar_islands_id(isl, c.x, c.y) == island) starts[i++] = c;
  }

  /* One field, N paths read from it. */
  astar_stats fs;
  double t0 = cli_now_seconds();
  st = astar_field_new(&field, grid, &opt, goal, 0, NULL, &fs);
  const double t_build = cli_now_seconds() - t0;
  if (st != ASTAR_OK) {
    cli_error("group: cannot build the field: %s", astar_strerror(st));
    goto done;
  }
  size_t cells = 0;
  t0 = cli_now_seconds();
  for (long i = 0; i < units; i++) {
    astar_result r;
    if (astar_field_path(field, grid, starts[i], path, cap, &r) != ASTAR_OK) {
      cli_error("group: no field path from (%d,%d)", (int)starts[i].x, (int)starts[i].y);
      goto done;
    }
    cost[i] = r.cost;
    cells += r.length;
  }
  const double t_paths = cli_now_seconds() - t0;

  /* The same N paths, one search each: the method prepared once (its
  ** preprocessing built, not timed with the searches), the queries run as
  ** one batch on one worker. */
  if (!cli_prepare(&prep, algo, grid, &opt, pos[0], NULL)) goto done;
  queries = malloc((size_t)units * sizeof *queries);
  found = malloc((size_t)units * sizeof *found);
  st = queries && found ? astar_batch_new(&batch, grid, 1, NULL) : ASTAR_NO_MEMORY;
  if (st != ASTAR_OK) {
    cli_error("%s: %s", pos[0], astar_strerror(st));
    goto done;
  }
  for (long i = 0; i < units; i++) queries[i] = (astar_query){starts[i], goal};
  uint64_t expanded = 0;
  long disagree = 0;
  double worst = 1.0; /* the largest cost over the field's */
  t0 = cli_now_seconds();
  st = astar_batch_find(batch, prep.finder, queries, (size_t)units, found, NULL, 0, NULL);
  const double t_search = cli_now_seconds() - t0;
  if (st != ASTAR_OK) {
    cli_error("group: --algo %s: %s", algo->name, astar_strerror(st));
    goto done;
  }
  for (long i = 0; i < units; i++) {
    const astar_path_result *r = &found[i];
    expanded += r->stats.expanded;
    const bool above = r->cost > cost[i] * (1 + 1e-9) + 1e-12;

    if (r->status != ASTAR_OK || r->cost < cost[i] * (1 - 1e-9) - 1e-12 || (optimal && above))
      disagree++;
    else if (cost[i] > 0 && r->cost / cost[i] > worst)
      worst = r->cost / cost[i];
  }

  cli_print_map_line(stdout, pos[0], grid);
  printf("goal:     (%d,%d); %ld units on cells that can reach it (seed %ld)\n", (int)gx, (int)gy,
         units, seed);
  printf("field:    built in %.3f ms (%llu cells settled, %zu bytes), %ld paths read in %.3f ms "
         "(%zu cells)\n",
         t_build * 1e3, (unsigned long long)fs.expanded, astar_field_memory(field), units,
         t_paths * 1e3, cells);
  printf("searches: %ld %s searches in %.3f ms (%llu expansions)\n", units,
         strcmp(algo->name, "astar") == 0 ? "A*" : algo->name, t_search * 1e3,
         (unsigned long long)expanded);
  if (optimal || disagree)
    printf("speed-up: %.1fx for the group (field + paths vs searches); costs %s\n",
           t_search / (t_build + t_paths), disagree ? "DISAGREE" : "agree for every unit");
  else
    printf("speed-up: %.1fx for the group (field + paths vs searches); costs never below the "
           "field's (at most %.4fx: %s is not optimal)\n",
           t_search / (t_build + t_paths), worst, algo->name);
  rc = disagree ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
  astar_batch_free(batch);
  free(found);
  free(queries);
  cli_prepared_free(&prep);
  free(starts);
  free(path);
  free(cost);
  astar_field_free(field);
  astar_workspace_free(ws);
  astar_islands_free(isl);
  astar_grid_free(grid);
  return rc;
}
