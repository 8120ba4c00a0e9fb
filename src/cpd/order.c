/*
** cpd/order.c -- the CPD's node numbering: depth-first preorder of the
** passable cells (Strasser, Botea & Harabor's best simple order for grids),
** so that targets near each other get near numbers and a row's runs are
** long. Roots are taken in row-major order, neighbours in the direction
** order N E S W NE SE SW NW over legal moves only, so the numbering -- and
** with it every byte of a CPD -- depends on the grid's cells alone. Also
** the movement-rule check and the grid fingerprint of the CPD files.
*/
#include "cpd/cpd.h"

#include "core/bytes.h"
#include "search/query.h"

#include <string.h>

/* Legal moves from a cell with neighbour byte nb: a diagonal needs both
** straight moves beside it (no corner cutting). */
static uint8_t legal_moves(unsigned nb) {
  unsigned m = nb & 0x0Fu;
  if ((nb & 0x10u) && (nb & 0x03u) == 0x03u) m |= 0x10u; /* NE: N and E */
  if ((nb & 0x20u) && (nb & 0x06u) == 0x06u) m |= 0x20u; /* SE: S and E */
  if ((nb & 0x40u) && (nb & 0x0Cu) == 0x0Cu) m |= 0x40u; /* SW: S and W */
  if ((nb & 0x80u) && (nb & 0x09u) == 0x09u) m |= 0x80u; /* NW: N and W */
  return (uint8_t)m;
}

const char *astar__cpd_rule_broken(const astar_grid *g, const astar_options *rules) {
  const astar_options *o = rules;
  astar_options defaults;
  if (!o) {
    astar_options_init(&defaults);
    o = &defaults;
  }
  if (g && g->terrain)
    return "the grid has terrain costs; a CPD needs uniform costs (clear the terrain)";
  if (o->moves != 8) return "a CPD needs 8 moves; options.moves is 4";
  if (o->corner != ASTAR_CORNER_NO_CUT)
    return "a CPD needs the no-corner-cutting rule (ASTAR_CORNER_NO_CUT)";
  if (o->straight_cost != 1.0 || o->diagonal_cost != ASTAR__SQRT2)
    return "a CPD needs straight cost 1 and diagonal cost sqrt 2 (the defaults)";
  if (o->turn_penalty != 0.0) return "a CPD has no turn penalty";
  if (o->terrain_scale != 1.0) return "a CPD needs uniform costs; terrain_scale is A*'s";
  if (o->nlayers) return "a CPD needs uniform costs; influence layers are A*'s";
  if (o->knowledge) return "a CPD knows the true grid; fog of war (knowledge) is A*'s";
  return NULL;
}

const char *astar_cpd_unsupported_reason(const astar_grid *grid, const astar_options *rules) {
  if (!grid) return "no grid";
  return astar__cpd_rule_broken(grid, rules);
}

void astar_cpd_config_init(astar_cpd_config *cfg) {
  if (cfg) memset(cfg, 0, sizeof *cfg);
}

uint32_t astar__cpd_count(const astar_grid *g) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->ncells; i++) n += g->pass[i];
  return n;
}

astar_status astar_cpd_sources(const astar_grid *grid, uint32_t *count) {
  if (!grid || !count) return ASTAR_INVALID_ARGUMENT;
  *count = astar__cpd_count(grid);
  return ASTAR_OK;
}

size_t astar__cpd_order_bytes(uint32_t n, uint32_t ncells) {
  return (size_t)ncells * sizeof(uint32_t) + (size_t)n * (2 * sizeof(uint32_t) + 1);
}

void astar__cpd_order_free(astar__cpd_order *o, const astar_allocator *a) {
  astar__free(a, o->node_of, (size_t)o->ncells * sizeof *o->node_of);
  astar__free(a, o->cell_of, (size_t)o->n * sizeof *o->cell_of);
  astar__free(a, o->comp, (size_t)o->n * sizeof *o->comp);
  astar__free(a, o->legal, (size_t)o->n);
  memset(o, 0, sizeof *o);
}

astar_status astar__cpd_order_make(astar__cpd_order *o, const astar_grid *g,
                                   const astar_allocator *a) {
  memset(o, 0, sizeof *o);
  const uint32_t n = astar__cpd_count(g);
  if (n > ASTAR__CPD_MAX_NODES) return ASTAR_TOO_LARGE;
  o->n = n;
  o->ncells = g->ncells;
  o->node_of = astar__malloc(a, (size_t)g->ncells * sizeof *o->node_of);
  /* n == 0 allocates nothing: the NULL tables are never read. */
  o->cell_of = n ? astar__malloc(a, (size_t)n * sizeof *o->cell_of) : NULL;
  o->comp = n ? astar__malloc(a, (size_t)n * sizeof *o->comp) : NULL;
  o->legal = n ? astar__malloc(a, n) : NULL;
  /* The DFS stack: a cell and the next direction to try, at most n deep. */
  uint32_t *stack = n ? astar__malloc(a, (size_t)n * sizeof *stack) : NULL;
  uint8_t *next = n ? astar__malloc(a, n) : NULL;
  if (!o->node_of || (n && (!o->cell_of || !o->comp || !o->legal || !stack || !next))) {
    astar__free(a, stack, (size_t)n * sizeof *stack);
    astar__free(a, next, n);
    astar__cpd_order_free(o, a);
    return ASTAR_NO_MEMORY;
  }
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = astar__dir_dy[d] * g->stride + astar__dir_dx[d];
  for (uint32_t i = 0; i < g->ncells; i++) o->node_of[i] = ASTAR__CPD_NONE;
  uint32_t count = 0;
  for (uint32_t root = 0; root < g->ncells; root++) {
    if (!g->pass[root] || o->node_of[root] != ASTAR__CPD_NONE) continue;
    const uint32_t comp = count;
    uint32_t depth = 0;
    stack[depth] = root;
    next[depth++] = 0;
    o->node_of[root] = count;
    o->cell_of[count] = root;
    o->comp[count] = comp;
    o->legal[count++] = legal_moves(g->nb[root]);
    while (depth) {
      const uint32_t c = stack[depth - 1];
      const uint8_t legal = o->legal[o->node_of[c]];
      int d = next[depth - 1];
      while (d < 8 &&
             !((legal >> d) & 1u && o->node_of[(uint32_t)((int32_t)c + off[d])] == ASTAR__CPD_NONE))
        d++;
      if (d == 8) {
        depth--;
        continue;
      }
      next[depth - 1] = (uint8_t)(d + 1);
      const uint32_t v = (uint32_t)((int32_t)c + off[d]);
      o->node_of[v] = count;
      o->cell_of[count] = v;
      o->comp[count] = comp;
      o->legal[count++] = legal_moves(g->nb[v]);
      stack[depth] = v;
      next[depth++] = 0;
    }
  }
  astar__free(a, stack, (size_t)n * sizeof *stack);
  astar__free(a, next, n);
  return ASTAR_OK;
}
