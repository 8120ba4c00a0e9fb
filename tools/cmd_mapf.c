/*
** cmd_mapf.c -- `astar mapf`: multi-agent pathfinding (astar/mapf.h) on a
** Moving AI map. The instance is the first N lines of a .scen file, or N
** agents drawn by the library's seeded generator (--random); the solver is
** one of the library's table (astar_mapf_algo_from_name: the tool keeps no
** list of its own). Prints a summary, or the solution as JSON (--json,
** -o), draws it (--svg, --png), writes a generated instance as a benchmark
** scen file (--write-scen), and checks a solution file made by anyone
** (--check, mapf_check.c).
**
** Every solution the tool prints has passed astar_mapf_check first: a
** solver's mistake is reported as such, never written out as a solution.
*/
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mapf_tool.h"

/* ---- the instance -------------------------------------------------------------------- */

const char *mapf_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

void mapf_instance_free(mapf_instance *inst) {
  astar_mapf_problem_free(inst->problem);
  astar_grid_free(inst->grid);
  free(inst->starts);
  free(inst->goals);
  free(inst->lines);
  inst->problem = NULL;
  inst->grid = NULL;
  inst->starts = inst->goals = NULL;
  inst->lines = NULL;
}

int mapf_load_map(mapf_instance *inst, const char *map, int bad) {
  astar_point s, g;
  inst->map_path = map;
  return cli_load_map(map, &inst->grid, &s, &g) ? -1 : bad;
}

/* Zeroed although every element is written before use: the analyzer cannot
** see that and would report reads of uninitialised memory. */
static bool alloc_agents(mapf_instance *inst, size_t n) {
  inst->starts = calloc(n ? n : 1, sizeof *inst->starts);
  inst->goals = calloc(n ? n : 1, sizeof *inst->goals);
  if (!inst->starts || !inst->goals) {
    cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
    return false;
  }
  inst->n = n;
  return true;
}

int mapf_set_agents(mapf_instance *inst, const astar_point *starts, const astar_point *goals,
                    size_t n) {
  if (!alloc_agents(inst, n)) return CLI_EXIT_FAIL;
  memcpy(inst->starts, starts, n * sizeof *starts);
  memcpy(inst->goals, goals, n * sizeof *goals);
  return -1;
}

int mapf_load_scen(mapf_instance *inst, const char *scen, size_t n, const char *asked_by, int bad) {
  astar_scen *sc;
  inst->scen_path = scen;
  if (!cli_load_scen(scen, &sc)) return bad;
  const size_t count = astar_scen_count(sc);
  const astar_scen_query *q = astar_scen_queries(sc);
  int rc = -1;
  if (count == 0) {
    cli_error("%s: no agents: the scenario has no lines after its version line", scen);
    rc = bad;
  } else if (n > count && !asked_by) {
    rc = cli_usage_error("mapf: --agents: expected an integer from 1 to %zu (the lines of %s), "
                         "got '%zu'",
                         count, scen, n);
  } else if (n > count) {
    cli_error("%s: %zu agents, but %s has %zu lines", asked_by, n, scen, count);
    rc = bad;
  } else if (n == 0 && count > ASTAR_MAPF_MAX_AGENTS) {
    cli_error("%s: %zu lines, more agents than the library takes (%u): give --agents", scen, count,
              (unsigned)ASTAR_MAPF_MAX_AGENTS);
    rc = bad;
  } else if (n == 0) {
    n = count;
  }
  const int32_t w = astar_grid_width(inst->grid), h = astar_grid_height(inst->grid);
  const bool named = strcmp(inst->map_path, "-") != 0;
  for (size_t i = 0; rc < 0 && i < n; i++) {
    /* The scen must be the map's: a scen of another map of the same size
    ** would give agents on walls, or worse, a valid but meaningless run. */
    if (q[i].map_width != w || q[i].map_height != h) {
      cli_error("%s:%d: the scenario is for a %d x %d map; %s is %d x %d", scen, (int)q[i].line,
                (int)q[i].map_width, (int)q[i].map_height, inst->map_path, (int)w, (int)h);
      rc = bad;
    } else if (named && strcmp(mapf_basename(q[i].map), mapf_basename(inst->map_path)) != 0) {
      cli_error("%s:%d: the scenario is for the map '%s', not %s", scen, (int)q[i].line, q[i].map,
                mapf_basename(inst->map_path));
      rc = bad;
    }
  }
  if (rc < 0 && !alloc_agents(inst, n)) rc = CLI_EXIT_FAIL;
  if (rc < 0 && !(inst->lines = calloc(n ? n : 1, sizeof *inst->lines))) {
    cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
    rc = CLI_EXIT_FAIL;
  }
  for (size_t i = 0; rc < 0 && i < n; i++) {
    inst->starts[i] = q[i].start;
    inst->goals[i] = q[i].goal;
    inst->lines[i] = q[i].line;
  }
  astar_scen_free(sc);
  return rc;
}

int mapf_generate(mapf_instance *inst, size_t n, uint64_t seed, int bad) {
  if (!alloc_agents(inst, n)) return CLI_EXIT_FAIL;
  inst->generated = true;
  inst->seed = seed;
  const astar_status st =
      astar_mapf_random_instance(inst->grid, seed, n, inst->starts, inst->goals, NULL);
  if (st == ASTAR_TOO_LARGE) {
    cli_error("%s: --random %zu: more agents than the map's largest connected area has cells",
              inst->map_path, n);
    return bad;
  }
  if (st != ASTAR_OK) {
    cli_error("%s: cannot generate an instance: %s", inst->map_path, astar_strerror(st));
    return CLI_EXIT_FAIL;
  }
  return -1;
}

/* "SCEN:LINE: agent I" or "SOURCE: agent I" for a message about agent i. */
static void agent_where(const mapf_instance *inst, size_t i, char *buf, size_t size) {
  if (inst->lines && inst->scen_path)
    snprintf(buf, size, "%s:%d: agent %zu", inst->scen_path, (int)inst->lines[i], i);
  else if (inst->scen_path)
    snprintf(buf, size, "%s: agent %zu", inst->scen_path, i);
  else
    snprintf(buf, size, "%s: agent %zu", inst->map_path, i);
}

int mapf_make_problem(mapf_instance *inst, int bad) {
  size_t at = SIZE_MAX;
  /* Through a local: handing &inst->problem out makes the analyzer forget the
  ** rest of *inst and report its arrays as leaked. */
  astar_mapf_problem *problem = NULL;
  const astar_status st =
      astar_mapf_problem_new(&problem, inst->grid, inst->starts, inst->goals, inst->n, &at, NULL);
  inst->problem = problem;
  if (st == ASTAR_OK) return -1;
  if (at >= inst->n) {
    cli_error("%s: %s", inst->scen_path ? inst->scen_path : inst->map_path, astar_strerror(st));
    return st == ASTAR_NO_MEMORY ? CLI_EXIT_FAIL : bad;
  }
  char where[1200];
  agent_where(inst, at, where, sizeof where);
  const astar_point s = inst->starts[at], g = inst->goals[at];
  switch (st) {
  case ASTAR_START_BLOCKED:
    cli_error("%s: the start (%d,%d) is blocked on %s", where, (int)s.x, (int)s.y, inst->map_path);
    break;
  case ASTAR_GOAL_BLOCKED:
    cli_error("%s: the goal (%d,%d) is blocked on %s", where, (int)g.x, (int)g.y, inst->map_path);
    break;
  case ASTAR_OUT_OF_BOUNDS:
    cli_error("%s: the start (%d,%d) or the goal (%d,%d) lies outside the %d x %d map %s", where,
              (int)s.x, (int)s.y, (int)g.x, (int)g.y, (int)astar_grid_width(inst->grid),
              (int)astar_grid_height(inst->grid), inst->map_path);
    break;
  case ASTAR_INVALID_ARGUMENT: {
    /* Two starts or two goals equal: name the earlier agent too. */
    for (size_t j = 0; j < at; j++) {
      const bool same_start = inst->starts[j].x == s.x && inst->starts[j].y == s.y;
      const bool same_goal = inst->goals[j].x == g.x && inst->goals[j].y == g.y;
      if (!same_start && !same_goal) continue;
      const astar_point c = same_start ? s : g;
      cli_error("%s: the %s (%d,%d) is agent %zu's %s too (two agents cannot share one)", where,
                same_start ? "start" : "goal", (int)c.x, (int)c.y, j,
                same_start ? "start" : "goal");
      return bad;
    }
    cli_error("%s: %s", where, astar_strerror(st));
    break;
  }
  default:
    cli_error("%s: %s", where, astar_strerror(st));
    return CLI_EXIT_FAIL;
  }
  return bad;
}

/* ---- options ------------------------------------------------------------------------- */

typedef struct mapf_settings {
  uint32_t agents;      /* --agents, 0: every line of the scen */
  astar_mapf_algo algo; /* --algo */
  double w;             /* --w (eecbs) */
  double time_limit;    /* --time-limit, seconds; 0: none */
  uint64_t max_work;    /* --max-work, 0: none */
  uint64_t seed;        /* --seed */
  bool json;            /* --json */
  const char *out;      /* -o: the JSON to this file */
  const char *svg, *png;
  uint32_t random;        /* --random N */
  const char *write_scen; /* --write-scen */
  const char *check;      /* --check */
} mapf_settings;

enum { K_SCEN, K_RANDOM, K_CHECK };
#define K_SOLVE (CLI_KIND(K_SCEN) | CLI_KIND(K_RANDOM))

/* --algo: the names of the library's table. */
static bool algo_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  astar_mapf_algo a;
  if (astar_mapf_algo_from_name(text, &a) != ASTAR_OK) return false;
  memcpy(dest, &a, sizeof a);
  return true;
}

static void algo_range(char *buf, size_t size) {
  size_t used = (size_t)snprintf(buf, size, "one of ");
  for (int i = 0; i < ASTAR_MAPF_ALGO_COUNT && used < size; i++) {
    const astar_mapf_algo_info *info = astar_mapf_algo_info_get((astar_mapf_algo)i);
    if (info) used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "|" : "", info->name);
  }
}

static const cli_opt mapf_rows[] = {
    {.name = "--agents",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(mapf_settings, agents),
     .min = 1,
     .max = ASTAR_MAPF_MAX_AGENTS,
     .kinds = CLI_KIND(K_SCEN),
     .help = "the first N lines of SCEN are the agents, %r (default: every line)"},
    {.name = "--random",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(mapf_settings, random),
     .min = 1,
     .max = ASTAR_MAPF_MAX_AGENTS,
     .kinds = CLI_KIND(K_RANDOM),
     .help = "instead of SCEN: N agents drawn at random by the benchmark's rule (starts and "
             "goals in the map's largest 4-connected area), %r; seeded by --seed"},
    {.name = "--algo",
     .meta = "NAME",
     .kind = CLI_CUSTOM,
     .off = offsetof(mapf_settings, algo),
     .parse = algo_parse,
     .range_fn = algo_range,
     .sample = "pibt",
     .kinds = K_SOLVE,
     .help = "the solver: %v (default lacam-star; the list below)"},
    {.name = "--w",
     .meta = "W",
     .kind = CLI_NUMBER,
     CLI_AT(mapf_settings, w),
     .dmin = 1,
     .dmax = 1000,
     .algos = "eecbs",
     .kinds = K_SOLVE,
     .help = "eecbs: the suboptimality bound, sum of costs <= W x optimal; %r (default 1.2)"},
    {.name = "--time-limit",
     .meta = "S",
     .kind = CLI_NUMBER,
     CLI_AT(mapf_settings, time_limit),
     .dmin = 0,
     .dmax = 1e6,
     .kinds = K_SOLVE,
     .help = "seconds the solver may take, %r; 0: no limit (default 10). lacam-star returns "
             "its best solution then"},
    {.name = "--max-work",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(mapf_settings, max_work),
     .min = 0,
     .max = UINT64_MAX,
     .kinds = K_SOLVE,
     .help = "the deterministic limit: high-level nodes plus low-level expansions (pibt: "
             "agent-steps), %r; 0: none (default)"},
    {.name = "--seed",
     .meta = "S",
     .kind = CLI_INT,
     CLI_AT(mapf_settings, seed),
     .min = 0,
     .max = UINT64_MAX,
     .kinds = K_SOLVE,
     .help = "seed of --random and of the solvers' tie-breaking, %r (default 0)"},
    {.name = "--write-scen",
     .meta = "FILE",
     .kind = CLI_TEXT,
     .off = offsetof(mapf_settings, write_scen),
     .range = "a file name",
     .kinds = CLI_KIND(K_RANDOM),
     .help = "write the generated instance to FILE as a Moving AI scen (version 1, bucket 0, "
             "the optimal column the 8-connected octile length without corner cutting) and "
             "stop: lacam3, EECBS and `astar mapf MAP FILE` read it"},
    {.name = "--json",
     .kind = CLI_FLAG,
     CLI_AT(mapf_settings, json),
     .kinds = K_SOLVE,
     .help = "print the result as JSON instead of the summary"},
    {.name = "--output",
     .alias = "-o",
     .meta = "FILE",
     .kind = CLI_TEXT,
     .off = offsetof(mapf_settings, out),
     .range = "a file name",
     .kinds = K_SOLVE,
     .help = "write the JSON to FILE (the summary stays on standard output)"},
    {.name = "--svg",
     .meta = "FILE",
     .kind = CLI_TEXT,
     .off = offsetof(mapf_settings, svg),
     .range = "a file name",
     .kinds = K_SOLVE,
     .help = "draw the solution as SVG: the map, each agent's path in its colour, starts and "
             "goals, and the agents walking (0.3 s a step)"},
    {.name = "--png",
     .meta = "FILE",
     .kind = CLI_TEXT,
     .off = offsetof(mapf_settings, png),
     .range = "a file name",
     .kinds = K_SOLVE,
     .help = "draw the paths as PNG (no animation)"},
    {.name = "--check",
     .meta = "FILE",
     .kind = CLI_TEXT,
     .off = offsetof(mapf_settings, check),
     .range = "a file name",
     .kinds = CLI_KIND(K_CHECK),
     .help = "check the solution in FILE instead of solving: the JSON of --json, lacam3's "
             "result file or EECBS's --outputPaths file"},
    CLI_HELP_ROW,
};
static const cli_group mapf_group = CLI_ROWS(mapf_rows);

static const cli_section mapf_sections[] = {
    {"Options:", &mapf_group, 0, 0, NULL, false},
};

static void intro(FILE *out) {
  fputs("usage: astar mapf MAP SCEN [--agents N] [--algo NAME] [OPTIONS]\n"
        "       astar mapf MAP --random N [--seed S] [--write-scen FILE] [OPTIONS]\n"
        "       astar mapf [MAP [SCEN]] --check SOLUTION\n"
        "\n"
        "Multi-agent pathfinding: N agents, each from its start to its goal on a\n"
        "4-connected map, moving or waiting one step at a time, never two in one cell\n"
        "and never two swapping cells; an agent that has arrived stays on its goal.\n"
        "The agents are the first N lines of a Moving AI .scen file (its map column and\n"
        "size must be MAP's), or N agents drawn at random (--random, said so in the\n"
        "output). Prints the sum of costs (each agent's arrival time, added up), the\n"
        "makespan, the lower bound (the agents' distances ignoring each other) and the\n"
        "solver's work; --json prints the paths as well. Every solution is checked\n"
        "with the library's validator before it is printed.\n"
        "\n"
        "--check validates a solution made by anyone: the JSON of --json (it names its\n"
        "map and scen, relative to its own folder; MAP and SCEN given override them),\n"
        "lacam3's result file (its starts=, goals= and solution= lines, (x,y); MAP\n"
        "needed, SCEN optional) or EECBS's --outputPaths file (Agent i: (row,col)->...;\n"
        "MAP and SCEN needed). It names the first fault -- its kind, the agents, the\n"
        "time and the cell -- and prints the sum of costs and the makespan.\n"
        "\n"
        "Solvers (--algo):\n",
        out);
  for (int i = 0; i < ASTAR_MAPF_ALGO_COUNT; i++) {
    const astar_mapf_algo_info *info = astar_mapf_algo_info_get((astar_mapf_algo)i);
    if (info) fprintf(out, "  %-12s %s\n", info->name, info->summary);
  }
}

static void outro(FILE *out) {
  fputs("JSON (--json, -o): \"map\", \"scen\" (null when generated: then \"generated\":\n"
        "{\"seed\": S}), \"agents\", \"algo\", \"w\" (eecbs), \"solved\", \"status\",\n"
        "\"sum_of_costs\", \"makespan\", \"lower_bound\", \"bound\", \"optimal\", \"time_ms\",\n"
        "\"time_first_ms\", \"improvements\" ([time_ms, sum_of_costs] for each solution\n"
        "found), \"high_level\", \"low_level\", \"peak_memory\" and \"paths\": per agent\n"
        "its [x, y] at each time step from 0 to its arrival.\n"
        "\n"
        "Exit status: 0 solved (--check: the solution is valid; --write-scen: written);\n"
        "1 not solved within the limits, no solution exists, or a file that cannot be\n"
        "read or is malformed (--check: the solution is invalid); 2 usage error (a\n"
        "bad option value or argument; --check: also a file that cannot be read or\n"
        "parsed, named with its line and column). See 'astar --help'.\n",
        out);
}

static int mapf_kind(const cli_args *a) {
  if (cli_seen(a, "--check")) return K_CHECK;
  return cli_seen(a, "--random") ? K_RANDOM : K_SCEN;
}

static const cli_kind mapf_kinds[] = {
    {"scen", "scenario files", "astar mapf --help"},
    {"random", "generated instances (--random)", "astar mapf --help"},
    {"check", "checking a solution (--check)", "astar mapf --help"},
};
static const cli_page mapf_pages[] = {
    {CLI_KIND(K_SCEN) | CLI_KIND(K_RANDOM) | CLI_KIND(K_CHECK), NULL, intro, outro}};

const cli_spec cli_mapf_spec = {.command = "mapf",
                                CLI_SECTIONS(mapf_sections),
                                CLI_KINDS(mapf_kinds),
                                CLI_PAGES(mapf_pages),
                                .kind_of = mapf_kind,
                                .algo_option = "--algo",
                                .algo_kinds = K_SOLVE};

/* ---- --write-scen ----------------------------------------------------------------------- */

/* The generated instance as a benchmark scen: each line's last column the
** single agent's optimal length under the benchmark's own rule (8-connected,
** diagonal sqrt 2, no corner cutting), found by the library's A*: the file
** is then what lacam3 and EECBS read (tab-separated, ".map" in the second
** column), and `bench` can check its lengths. */
static int write_scen(const mapf_instance *inst, const char *path) {
  astar_options opt;
  astar_options_init(&opt);
  opt.moves = 8;
  opt.corner = ASTAR_CORNER_NO_CUT;
  opt.straight_cost = 1.0;
  opt.diagonal_cost = sqrt(2.0);
  astar_workspace *ws = NULL;
  const size_t cap = astar_grid_count_passable(inst->grid) + 1; /* the longest path */
  astar_point *cells = malloc(cap * sizeof *cells);
  astar_status st = cells ? astar_workspace_new(&ws, inst->grid, NULL) : ASTAR_NO_MEMORY;
  if (st != ASTAR_OK) {
    free(cells);
    cli_error("%s: %s", inst->map_path, astar_strerror(st));
    return CLI_EXIT_FAIL;
  }
  cli_out o;
  if (!cli_out_open(&o, path)) {
    astar_workspace_free(ws);
    free(cells);
    return CLI_EXIT_FAIL;
  }
  const int32_t w = astar_grid_width(inst->grid), h = astar_grid_height(inst->grid);
  const char *name = strcmp(inst->map_path, "-") == 0 ? "stdin.map" : mapf_basename(inst->map_path);
  fputs("version 1\n", o.f);
  for (size_t i = 0; i < inst->n; i++) {
    astar_result r;
    st = astar_find_path(ws, inst->grid, &opt, inst->starts[i], inst->goals[i], cells, cap, &r);
    if (st != ASTAR_OK) {
      /* The generator draws from one 4-connected area: this cannot happen
      ** unless the map has terrain the benchmark's rule does not know. */
      cli_out_abort(&o);
      cli_error("%s: agent %zu: no 8-connected path from (%d,%d) to (%d,%d): %s", inst->map_path, i,
                (int)inst->starts[i].x, (int)inst->starts[i].y, (int)inst->goals[i].x,
                (int)inst->goals[i].y, astar_strerror(st));
      astar_workspace_free(ws);
      free(cells);
      return CLI_EXIT_FAIL;
    }
    fprintf(o.f, "0\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n", name, (int)w, (int)h,
            (int)inst->starts[i].x, (int)inst->starts[i].y, (int)inst->goals[i].x,
            (int)inst->goals[i].y, r.cost);
  }
  astar_workspace_free(ws);
  free(cells);
  if (!cli_out_close(&o)) return CLI_EXIT_FAIL;
  printf("wrote:    %s (%zu agents generated on %s with seed %llu)\n", path, inst->n,
         mapf_basename(inst->map_path), (unsigned long long)inst->seed);
  return CLI_EXIT_OK;
}

/* ---- the JSON ----------------------------------------------------------------------- */

/* Each solution an anytime solver reported: [seconds, sum of costs]. */
typedef struct improve_log {
  double (*at)[2];
  size_t n, cap;
  bool failed;
} improve_log;

static void on_improve(void *ud, uint64_t soc, double seconds) {
  improve_log *l = ud;
  if (l->n == l->cap) {
    const size_t cap = l->cap ? 2 * l->cap : 16;
    double(*at)[2] = realloc(l->at, cap * sizeof *at);
    if (!at) {
      l->failed = true;
      return;
    }
    l->at = at;
    l->cap = cap;
  }
  l->at[l->n][0] = seconds;
  l->at[l->n][1] = (double)soc;
  l->n++;
}

/* `target` as the JSON at `json_path` should name it: a relative name
** relative to the JSON's folder (what --check resolves it against); as
** given when it is absolute, when the JSON goes to standard output or when
** either path cannot be resolved. */
static void relative_name(char *buf, size_t size, const char *target, const char *json_path) {
  snprintf(buf, size, "%s", target);
  if (!json_path || strcmp(target, "-") == 0 || target[0] == '/') return;
  char dir[PATH_MAX];
  const char *slash = strrchr(json_path, '/');
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else
    snprintf(dir, sizeof dir, "%.*s", (int)(slash == json_path ? 1 : slash - json_path), json_path);
  char *from = realpath(dir, NULL), *to = realpath(target, NULL);
  if (from && to) {
    /* Both absolute: the folders they share (whole names), then ".." for
    ** each folder of `from` below them and the rest of `to`. */
    size_t common = 0; /* length of the shared prefix, up to a '/' */
    for (size_t i = 0;; i++) {
      const bool end_from = from[i] == '\0' || from[i] == '/';
      const bool end_to = to[i] == '/';
      if (end_from && end_to) common = i;
      if (from[i] == '\0' || from[i] != to[i]) break;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = from + common; *p && used < size; p++)
      if (*p == '/' && p[1] != '\0') used += (size_t)snprintf(buf + used, size - used, "../");
    if (used < size) snprintf(buf + used, size - used, "%s", to + common + 1);
  }
  free(from);
  free(to);
}

static void json_nullable_ms(FILE *f, double seconds) {
  if (seconds < 0)
    fputs("null", f);
  else
    cli_json_number(f, seconds * 1e3, 3);
}

static void write_json(FILE *f, const mapf_settings *s, const mapf_instance *inst,
                       const char *json_path, astar_status st, const astar_mapf_stats *stats,
                       const improve_log *imp, const astar_mapf_solution *sol) {
  char name[PATH_MAX + 64];
  relative_name(name, sizeof name, inst->map_path, json_path);
  fputs("{\"map\": ", f);
  cli_json_string(f, name);
  fputs(", \"scen\": ", f);
  if (inst->scen_path) {
    relative_name(name, sizeof name, inst->scen_path, json_path);
    cli_json_string(f, name);
  } else {
    fputs("null", f);
  }
  if (inst->generated)
    fprintf(f, ", \"generated\": {\"seed\": %llu}", (unsigned long long)inst->seed);
  const astar_mapf_algo_info *info = astar_mapf_algo_info_get(s->algo);
  fprintf(f, ", \"agents\": %zu, \"algo\": \"%s\"", inst->n, info ? info->name : "?");
  if (s->algo == ASTAR_MAPF_EECBS) {
    fprintf(f, ", \"w\": %.10g", s->w); /* in [1, 1000]: finite */
  }
  fprintf(f, ",\n \"solved\": %s, \"status\": \"%s\", \"sum_of_costs\": %llu, \"makespan\": %u",
          stats->solved ? "true" : "false", cli_status_key(st),
          (unsigned long long)stats->sum_of_costs, (unsigned)stats->makespan);
  fprintf(f, ", \"lower_bound\": %llu, \"bound\": ", (unsigned long long)stats->lower_bound);
  cli_json_number(f, stats->bound, 3);
  fprintf(f, ", \"optimal\": %s,\n \"time_ms\": ", stats->optimal ? "true" : "false");
  cli_json_number(f, stats->time_total * 1e3, 3);
  fputs(", \"time_first_ms\": ", f);
  json_nullable_ms(f, stats->solved ? stats->time_first : -1);
  fputs(", \"improvements\": [", f);
  for (size_t i = 0; i < imp->n; i++) {
    fputs(i ? ", [" : "[", f);
    cli_json_number(f, imp->at[i][0] * 1e3, 3);
    fprintf(f, ", %.0f]", imp->at[i][1]);
  }
  fprintf(f, "],\n \"high_level\": %llu, \"low_level\": %llu, \"peak_memory\": %zu,\n \"paths\": [",
          (unsigned long long)stats->high_level, (unsigned long long)stats->low_level,
          stats->peak_memory);
  for (size_t a = 0; stats->solved && a < inst->n; a++) {
    size_t len;
    const astar_point *p = astar_mapf_solution_path(sol, a, &len);
    fputs(a ? ",\n  [" : "\n  [", f);
    for (size_t t = 0; t < len; t++)
      fprintf(f, "%s[%d, %d]", t ? ", " : "", (int)p[t].x, (int)p[t].y);
    fputc(']', f);
  }
  fputs(stats->solved ? "\n ]}\n" : "]}\n", f);
}

/* ---- the summary ----------------------------------------------------------------------- */

static void print_summary(const mapf_settings *s, const mapf_instance *inst, astar_status st,
                          const astar_mapf_stats *stats) {
  cli_print_map_line(stdout, strcmp(inst->map_path, "-") == 0 ? "(stdin)" : inst->map_path,
                     inst->grid);
  if (inst->generated)
    printf("agents:   %zu generated at random (seed %llu), starts and goals in the largest "
           "4-connected area\n",
           inst->n, (unsigned long long)inst->seed);
  else
    printf("agents:   %zu, the first lines of %s\n", inst->n, inst->scen_path);
  const astar_mapf_algo_info *info = astar_mapf_algo_info_get(s->algo);
  printf("solver:   %s", info ? info->name : "?");
  if (s->algo == ASTAR_MAPF_EECBS) printf(" (w %g)", s->w);
  if (s->time_limit > 0) printf(", time limit %g s", s->time_limit);
  if (s->max_work > 0) printf(", work limit %llu", (unsigned long long)s->max_work);
  printf(", seed %llu\n", (unsigned long long)s->seed);
  if (stats->solved) {
    printf("status:   solved%s\n", stats->optimal ? ", proven optimal" : "");
    printf("cost:     sum of costs %llu (lower bound %llu, x%.4f), makespan %u\n",
           (unsigned long long)stats->sum_of_costs, (unsigned long long)stats->lower_bound,
           stats->lower_bound ? (double)stats->sum_of_costs / (double)stats->lower_bound : 1.0,
           (unsigned)stats->makespan);
    printf("time:     %.3f ms", stats->time_total * 1e3);
    if (stats->time_first >= 0) printf(", first solution after %.3f ms", stats->time_first * 1e3);
    printf(", %u solution%s found\n", (unsigned)stats->improvements,
           stats->improvements == 1 ? "" : "s");
  } else {
    const char *why = st == ASTAR_LIMIT_REACHED ? "not solved within the limits"
                      : st == ASTAR_NO_PATH     ? "no solution exists"
                      : st == ASTAR_UNSUPPORTED ? "the solver cannot take this problem"
                                                : astar_strerror(st);
    printf("status:   %s (%s)\n", why, cli_status_key(st));
    printf("time:     %.3f ms\n", stats->time_total * 1e3);
  }
  printf("work:     %llu high-level, %llu low-level, peak memory %zu bytes\n",
         (unsigned long long)stats->high_level, (unsigned long long)stats->low_level,
         stats->peak_memory);
}

/* ---- the command ---------------------------------------------------------------------- */

static int solve(const mapf_settings *s, mapf_instance *inst) {
  astar_mapf_solver *solver = NULL;
  astar_mapf_solution *sol = NULL;
  improve_log imp = {0};
  int rc = CLI_EXIT_FAIL;
  astar_status st = astar_mapf_solver_new(&solver, NULL);
  if (st == ASTAR_OK) st = astar_mapf_solution_new(&sol, inst->n, NULL);
  if (st != ASTAR_OK) {
    cli_error("%s", astar_strerror(st));
    goto done;
  }
  astar_mapf_options o;
  astar_mapf_options_init(&o);
  o.algo = s->algo;
  o.w = s->w;
  o.time_limit = s->time_limit;
  o.max_work = s->max_work;
  o.seed = s->seed;
  o.on_improve = on_improve;
  o.improve_ud = &imp;
  astar_mapf_stats stats;
  memset(&stats, 0, sizeof stats);
  st = astar_mapf_solve(solver, inst->problem, &o, sol, &stats);
  if (st == ASTAR_INVALID_ARGUMENT) {
    rc = cli_usage_error("mapf: the solver refused its options (%s)", astar_strerror(st));
    goto done;
  }
  if (imp.failed) {
    cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
    goto done;
  }
  if (stats.solved) {
    /* The tool prints no solution the validator has not passed. */
    astar_mapf_report rep;
    const astar_status cst = astar_mapf_check(inst->problem, sol, &rep, NULL);
    if (cst != ASTAR_OK || rep.fault != ASTAR_MAPF_VALID) {
      if (cst != ASTAR_OK)
        cli_error("mapf: cannot check the solution: %s", astar_strerror(cst));
      else
        cli_error("mapf: %s returned an INVALID solution: %s, agent %u, time %u, cell (%d,%d) -- "
                  "a bug in the library, please report it",
                  astar_mapf_algo_info_get(s->algo)->name, astar_mapf_fault_name(rep.fault),
                  (unsigned)rep.agent, (unsigned)rep.time, (int)rep.cell.x, (int)rep.cell.y);
      goto done;
    }
  }
  if (s->json) {
    write_json(stdout, s, inst, NULL, st, &stats, &imp, sol);
  } else {
    print_summary(s, inst, st, &stats);
    if (!stats.solved && st == ASTAR_LIMIT_REACHED)
      fputs("          (raise --time-limit or --max-work, or try --algo lacam or pibt)\n", stdout);
  }
  bool ok = true;
  if (s->out) {
    cli_out o2;
    ok = cli_out_open(&o2, s->out);
    if (ok) {
      write_json(o2.f, s, inst, s->out, st, &stats, &imp, sol);
      ok = cli_out_close(&o2);
      if (ok && !s->json) printf("wrote:    %s (the solution as JSON)\n", s->out);
    }
  }
  if (ok && stats.solved && s->svg) {
    ok = mapf_picture(s->svg, true, inst, sol);
    if (ok && !s->json) printf("wrote:    %s (the agents' paths, animated)\n", s->svg);
  }
  if (ok && stats.solved && s->png) {
    ok = mapf_picture(s->png, false, inst, sol);
    if (ok && !s->json) printf("wrote:    %s (the agents' paths)\n", s->png);
  }
  if (!stats.solved && (s->svg || s->png) && !s->json)
    printf("          (no picture: there is no solution to draw)\n");
  rc = ok && stats.solved ? CLI_EXIT_OK : CLI_EXIT_FAIL;
done:
  free(imp.at);
  astar_mapf_solution_free(sol);
  astar_mapf_solver_free(solver);
  return rc;
}

int cli_cmd_mapf(int argc, char **argv) {
  mapf_settings s;
  memset(&s, 0, sizeof s);
  s.algo = ASTAR_MAPF_LACAM_STAR;
  s.w = 1.2;
  s.time_limit = 10;
  cli_args a;
  const int prc = cli_parse(&a, &cli_mapf_spec, argc, argv, &s);
  if (prc >= 0) return prc;
  const char *const *pos = a.pos;
  const int npos = a.npos;

  if (a.kind == K_CHECK) {
    if (npos > 2) return cli_usage_error("mapf: unexpected argument '%s'", pos[2]);
    return mapf_check_command(s.check, npos > 0 ? pos[0] : NULL, npos > 1 ? pos[1] : NULL);
  }
  const int crc = cli_check_algo(&a, astar_mapf_algo_info_get(s.algo)->name);
  if (crc >= 0) return crc;
  const int want = a.kind == K_RANDOM ? 1 : 2;
  if (npos > want) return cli_usage_error("mapf: unexpected argument '%s'", pos[want]);
  if (npos < want)
    return cli_usage_error(a.kind == K_RANDOM ? "mapf: expected MAP (see 'astar mapf --help')"
                                              : "mapf: expected MAP SCEN, or MAP --random N (see "
                                                "'astar mapf --help')");
  if (s.out && s.out[0] == '\0') return cli_usage_error("mapf: -o: expected a file name, got ''");
  if (s.out && strcmp(s.out, "-") == 0)
    return cli_usage_error("mapf: -o -: the JSON goes to standard output with --json");

  mapf_instance inst;
  memset(&inst, 0, sizeof inst);
  int rc = mapf_load_map(&inst, pos[0], CLI_EXIT_FAIL);
  if (rc < 0) {
    if (a.kind == K_RANDOM)
      rc = mapf_generate(&inst, s.random, s.seed, CLI_EXIT_FAIL);
    else
      rc = mapf_load_scen(&inst, pos[1], s.agents, NULL, CLI_EXIT_FAIL);
  }
  if (rc < 0) rc = mapf_make_problem(&inst, CLI_EXIT_FAIL);
  if (rc < 0) rc = s.write_scen ? write_scen(&inst, s.write_scen) : solve(&s, &inst);
  mapf_instance_free(&inst);
  return rc;
}
