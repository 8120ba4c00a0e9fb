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

const char cli_unit_help[] =
    "Unit options (solve):\n"
    "  --size K               a K x K unit (1..255, default 1) placed by its top-left\n"
    "                         cell: SX SY GX GY and the path are that cell's; every\n"
    "                         cell the unit covers or sweeps must be free\n"
    "  --capability LIST      terrain types the unit may enter, comma-separated from\n"
    "                         ground, swamp, water, trees (default ground,swamp: the\n"
    "                         Moving AI rules; '.' 'G' ground, 'S' swamp, 'W' water,\n"
    "                         'T' trees, '@' 'O' '#' never)\n";

static const char *const type_names[] = {"ground", "swamp", "water", "trees", NULL};

void cli_unit_defaults(cli_unit *u) {
  memset(u, 0, sizeof *u);
  u->size = 1;
  u->capability = ASTAR_CAPABILITY_WALKER;
}

int cli_unit_option(cli_parser *p, cli_unit *u) {
  const char *v;
  if (cli_is(p, "--size", NULL)) {
    long n;
    if (!(v = cli_value(p)) || !cli_parse_int(p->name, v, 1, ASTAR_CLEARANCE_MAX, &n)) return -1;
    u->size = (int32_t)n;
    u->active = true;
  } else if (cli_is(p, "--capability", NULL)) {
    if (!(v = cli_value(p))) return -1;
    astar_capability m = 0;
    for (const char *s = v;;) {
      const char *comma = strchr(s, ',');
      const size_t len = comma ? (size_t)(comma - s) : strlen(s);
      int which = -1;
      for (int i = 0; type_names[i]; i++)
        if (strlen(type_names[i]) == len && memcmp(s, type_names[i], len) == 0) which = i;
      if (which < 0) {
        cli_error("%s: expected a comma-separated list of ground, swamp, water, trees, got '%s'",
                  p->name, v);
        return -1;
      }
      m |= ASTAR_CAPABILITY(which);
      if (!comma) break;
      s = comma + 1;
    }
    u->capability = m;
    u->active = true;
  } else {
    return 0;
  }
  return 1;
}

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
