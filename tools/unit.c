/*
** unit.c -- `--size K` and `--capability LIST` of `astar solve`: a unit
** bigger than one cell, or one that may enter only some terrain types
** (astar/clearance.h). The map's terrain types are read from its text, the
** clearance is built for the one capability, and the search runs unchanged
** on the derived "the unit fits here" grid; the path printed is the unit's
** anchor (top-left cell).
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const type_names[] = {"ground", "swamp", "water", "trees", NULL};

void cli_unit_defaults(cli_unit *u) {
  memset(u, 0, sizeof *u);
  u->size = 1;
  u->capability = ASTAR_CAPABILITY_WALKER;
}

/* --capability LIST: dest is the astar_capability. */
static bool capability_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  astar_capability m = 0;
  for (const char *s = text;;) {
    const char *comma = strchr(s, ',');
    const size_t len = comma ? (size_t)(comma - s) : strlen(s);
    int which = -1;
    for (int i = 0; type_names[i]; i++)
      if (strlen(type_names[i]) == len && memcmp(s, type_names[i], len) == 0) which = i;
    if (which < 0) return false;
    m |= ASTAR_CAPABILITY(which);
    if (!comma) break;
    s = comma + 1;
  }
  memcpy(dest, &m, sizeof m);
  return true;
}

static const cli_opt unit_rows[] = {
    {.name = "--size",
     .meta = "K",
     .kind = CLI_INT,
     CLI_AT(cli_unit, size),
     .min = 1,
     .max = ASTAR_CLEARANCE_MAX,
     .help = "a K x K unit (%r, default 1) placed by its top-left\n"
             "cell: SX SY GX GY and the path are that cell's; every\n"
             "cell the unit covers or sweeps must be free"},
    {.name = "--capability",
     .meta = "LIST",
     .kind = CLI_CUSTOM,
     CLI_AT(cli_unit, capability),
     .parse = capability_parse,
     .range = "a comma-separated list of ground, swamp, water, trees",
     .sample = "ground",
     .help = "terrain types the unit may enter, comma-separated from\n"
             "ground, swamp, water, trees (default ground,swamp: the\n"
             "Moving AI rules; '.' 'G' ground, 'S' swamp, 'W' water,\n"
             "'T' trees, '@' 'O' '#' never)"},
};
const cli_group cli_unit_group = CLI_ROWS(unit_rows);

void cli_unit_describe(FILE *out, const cli_unit *u) {
  fprintf(out, "unit:     %dx%d, may enter ", (int)u->size, (int)u->size);
  bool first = true;
  for (int i = 0; type_names[i]; i++)
    if (u->capability >> i & 1u) {
      fprintf(out, "%s%s", first ? "" : ",", type_names[i]);
      first = false;
    }
  fprintf(out, "; %zu anchor cells fit\n", u->fit);
}

bool cli_unit_grid(cli_unit *u, const char *path, const char *text, size_t len, astar_grid *map,
                   astar_grid **derived) {
  *derived = NULL;
  const size_t cells = (size_t)astar_grid_width(map) * (size_t)astar_grid_height(map);
  uint8_t *types = malloc(cells);
  astar_clearance *c = NULL;
  astar_status st =
      types ? astar_terrain_types_parse(text, len, map, types, cells) : ASTAR_NO_MEMORY;
  /* The loader blocked 'W' and 'T'; open those this unit may enter. */
  if (st == ASTAR_OK) st = astar_terrain_open(map, types, u->capability);
  if (st == ASTAR_OK) st = astar_clearance_new(&c, map, types, &u->capability, 1, u->size, NULL);
  if (st == ASTAR_OK)
    st = astar_grid_new(derived, astar_grid_width(map), astar_grid_height(map), NULL);
  if (st == ASTAR_OK) st = astar_clearance_fill_grid(c, map, u->size, u->capability, *derived);
  astar_clearance_free(c);
  free(types);
  if (st != ASTAR_OK) {
    cli_error("%s: cannot build the unit's grid: %s", path, astar_strerror(st));
    astar_grid_free(*derived);
    *derived = NULL;
    return false;
  }
  u->fit = astar_grid_count_passable(*derived);
  return true;
}
