/*
** mapf_tool.h -- what the files of `astar mapf` share (cmd_mapf.c: the
** command and solving; mapf_check.c: --check and the solution formats it
** reads; mapf_picture.c: --svg / --png). The library (astar/mapf.h) holds
** the problem, the solvers and the validator; these files read and write
** the files around them.
*/
#ifndef ASTAR_MAPF_TOOL_H
#define ASTAR_MAPF_TOOL_H

#include <astar/mapf.h>

#include "cli.h"

/* An instance as the tool builds it: the map, N (start, goal) pairs and
** where they came from, and the library's problem made of them. */
typedef struct mapf_instance {
  const char *map_path;  /* as given ("-": standard input) */
  const char *scen_path; /* NULL when generated or taken from a solution file */
  astar_grid *grid;
  size_t n;
  astar_point *starts, *goals; /* n each */
  int32_t *lines;              /* scen line of each agent (NULL when not from a scen) */
  bool generated;              /* astar_mapf_random_instance(grid, seed, n) */
  uint64_t seed;
  astar_mapf_problem *problem;
} mapf_instance;

/* Load `map` into inst->grid. `bad`: the exit status for an input that
** cannot be read or parsed (solving: CLI_EXIT_FAIL as in the tool's table;
** --check: CLI_EXIT_USAGE, its 1 meaning an invalid solution). Returns -1
** when done, else that status after a message naming the file. */
int mapf_load_map(mapf_instance *inst, const char *map, int bad);

/* The first n agents of the scenario `scen` (n 0: every line) on the map
** loaded before; its map column and size checked against the map. n more
** than its lines: a usage error of --agents when asked_by is NULL, else
** `bad` naming asked_by (the solution file that has n agents). Returns -1
** or an exit status after a message naming the file and line. */
int mapf_load_scen(mapf_instance *inst, const char *scen, size_t n, const char *asked_by, int bad);

/* n agents drawn by astar_mapf_random_instance with `seed`. Returns -1 or
** an exit status after a message. */
int mapf_generate(mapf_instance *inst, size_t n, uint64_t seed, int bad);

/* The agents given by the caller (copied): inst->starts / goals / n. */
int mapf_set_agents(mapf_instance *inst, const astar_point *starts, const astar_point *goals,
                    size_t n);

/* inst->problem from the grid and the agents; a fault (two equal starts, a
** start on a wall, ...) is told naming the agent and its scen line. Returns
** -1 or `bad` after a message. */
int mapf_make_problem(mapf_instance *inst, int bad);

void mapf_instance_free(mapf_instance *inst);

/* "FILE" without its folders, for the scen's map column. */
const char *mapf_basename(const char *path);

/* `astar mapf [MAP [SCEN]] --check FILE`: read the solution (the tool's
** JSON, lacam3's result file or EECBS's --outputPaths file), build its
** instance (map and scen named by the positionals, else by the file),
** check it with astar_mapf_check and print the verdict. Returns the exit
** status: 0 valid, 1 invalid, 2 usage or a file that cannot be read. */
int mapf_check_command(const char *file, const char *map, const char *scen);

/* The picture of a solution: the map, each agent's path in its colour,
** starts and goals marked; SVG (`svg`) with the agents walking (an
** animation, 0.3 s a step), else PNG. Writes `path` through cli_out
** (nothing left behind on failure). False after a message. */
bool mapf_picture(const char *path, bool svg, const mapf_instance *inst,
                  const astar_mapf_solution *sol);

#endif /* ASTAR_MAPF_TOOL_H */
