/*
** options.c -- search options: defaults, validation, the movement rules
** they select, the heuristic they resolve to, and path checking.
*/
#include "core/counters.h"
#include "core/workspace.h"
#include "astar/landmarks.h"
#include "heuristics/lm_table.h"
#include "search/options.h"
#include "search/query.h"

void astar_options_init(astar_options *opt) {
  if (!opt) return;
  memset(opt, 0, sizeof *opt);
  opt->moves = 8;
  opt->corner = ASTAR_CORNER_NO_CUT;
  opt->straight_cost = 1.0;
  opt->diagonal_cost = ASTAR__SQRT2;
  opt->heuristic = ASTAR_H_AUTO;
  opt->weight = 1.0;
  opt->tie = ASTAR_TIE_LARGER_G;
  opt->reopen = ASTAR_REOPEN_AUTO;
  opt->stop_interval = 256;
  opt->unknown_cost = 2.0;
  astar__options_defaults(opt);
}

/* ---- the table of options (search/options.h) ---------------------------------- */

void astar__options_defaults(astar_options *o) {
#define ASTAR__DEFAULT(id, field, def, check, general, refusal) o->field = (def);
  ASTAR__OPTION_ROWS(ASTAR__DEFAULT)
#undef ASTAR__DEFAULT
}

bool astar__options_valid(const astar_options *o) {
#define ASTAR__VALID(id, field, def, check, general, refusal) &&check(o->field)
  return true ASTAR__OPTION_ROWS(ASTAR__VALID);
#undef ASTAR__VALID
}

bool astar__options_general(const astar_options *o) {
#define ASTAR__GENERAL(id, field, def, check, general, refusal) || ((general) && o->field != (def))
  return false ASTAR__OPTION_ROWS(ASTAR__GENERAL);
#undef ASTAR__GENERAL
}

const char *astar__options_refusal(const astar_options *o, unsigned honoured) {
#define ASTAR__REFUSAL(id, field, def, check, general, refusal)                                    \
  if (o->field != (def) && !(honoured & ASTAR__OPT_BIT(id))) return (refusal);
  ASTAR__OPTION_ROWS(ASTAR__REFUSAL)
#undef ASTAR__REFUSAL
  return NULL;
}

/* In (0, ASTAR_OPTION_MAX]: no sum of costs can overflow (NaN fails too). */
static bool cost_ok(double c) {
  return c > 0.0 && c <= ASTAR_OPTION_MAX;
}

/* In [0, ASTAR_OPTION_MAX] (NaN fails). */
static bool factor_ok(double v) {
  return v >= 0.0 && v <= ASTAR_OPTION_MAX;
}

astar_status astar_options_validate(const astar_options *o) {
  ASTAR__COUNT_VALIDATION();
  if (!o) return ASTAR_INVALID_ARGUMENT;
  if (o->moves != 4 && o->moves != 8) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->corner > (unsigned)ASTAR_CORNER_NEVER) return ASTAR_INVALID_ARGUMENT;
  if (!cost_ok(o->straight_cost) || !cost_ok(o->diagonal_cost)) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->heuristic > (unsigned)ASTAR_H_CALLBACK) return ASTAR_INVALID_ARGUMENT;
  if (o->heuristic == ASTAR_H_CALLBACK && !o->heuristic_fn) return ASTAR_INVALID_ARGUMENT;
  if (!factor_ok(o->weight)) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->tie > (unsigned)ASTAR_TIE_CROSS) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->reopen > (unsigned)ASTAR_REOPEN_NEVER) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->algorithm > (unsigned)ASTAR_ALGO_JPS) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->open_set > (unsigned)ASTAR_OPEN_BUCKET) return ASTAR_INVALID_ARGUMENT;
  if (o->stop_fn && o->stop_interval == 0) return ASTAR_INVALID_ARGUMENT;
  if (o->nlayers && (!o->layers || !o->layer_weights)) return ASTAR_INVALID_ARGUMENT;
  for (size_t i = 0; i < o->nlayers; i++)
    if (!o->layers[i] || !factor_ok(o->layer_weights[i])) return ASTAR_INVALID_ARGUMENT;
  if (!astar__options_valid(o)) return ASTAR_INVALID_ARGUMENT; /* the table's rows */
  if (!factor_ok(o->heuristic_floor)) return ASTAR_INVALID_ARGUMENT;
  if ((unsigned)o->unknown > (unsigned)ASTAR_UNKNOWN_COST) return ASTAR_INVALID_ARGUMENT;
  if (!cost_ok(o->unknown_cost)) return ASTAR_INVALID_ARGUMENT;
  if (o->retarget && !o->islands) return ASTAR_INVALID_ARGUMENT;
  return ASTAR_OK;
}

bool astar__diagonals_on(const astar_options *o) {
  return o->moves == 8 && o->corner != ASTAR_CORNER_NEVER;
}

int astar__rule_of(const astar_options *o) {
  if (!astar__diagonals_on(o)) return ASTAR__RULE_STRAIGHT;
  switch (o->corner) {
  case ASTAR_CORNER_ALWAYS:
    return ASTAR__RULE_ALWAYS;
  case ASTAR_CORNER_ONE_SIDE:
    return ASTAR__RULE_ONE_SIDE;
  default:
    return ASTAR__RULE_NO_CUT;
  }
}

/* Resolve the heuristic into kind + coefficients: h = ha*(dx+dy) + hb*min
** for octile (which covers the d < s and d > 2s cases too), ha*... for the
** others; ha and hb already include weight and the terrain floor. */
void astar__setup_heuristic(astar__query *q, const astar_options *o, const astar_grid *g) {
  /* The query's costs: the options' rounded onto the quantum (query.c). */
  const double s = q->cost[ASTAR__N], d = q->cost[ASTAR__NE];
  /* The smallest entry factor any cell can have: the terrain floor after
  ** terrain_scale (layers only add), times the unknown-cell factor when
  ** that is below 1. Scaling by it keeps every built-in heuristic
  ** admissible. */
  double floor_factor = 1.0 + o->terrain_scale * ((double)g->min_terrain - 1.0);
  if (o->knowledge && o->unknown == ASTAR_UNKNOWN_COST && o->unknown_cost < 1.0)
    floor_factor *= o->unknown_cost;
  /* The caller's floor replaces it: weighted A* by heuristic_floor / floor. */
  if (o->heuristic_floor > 0.0) floor_factor = o->heuristic_floor;
  const double scale = o->weight * floor_factor;
  const bool diag = astar__diagonals_on(o);
  int h = o->heuristic;
  if (h == ASTAR_H_AUTO) h = diag ? ASTAR_H_OCTILE : ASTAR_H_MANHATTAN;
  q->ha = q->hb = 0.0;
  switch (h) {
  case ASTAR_H_OCTILE:
    q->hkind = ASTAR__HK_OCTILE;
    if (!diag || d >= 2.0 * s) {
      q->ha = s * scale; /* diagonals never help: Manhattan */
    } else if (d >= s) {
      q->ha = s * scale; /* s*max + (d-s)*min == s*(dx+dy) + (d-2s)*min */
      q->hb = (d - 2.0 * s) * scale;
    } else {
      q->ha = d * scale; /* d*max == d*(dx+dy) - d*min */
      q->hb = -d * scale;
    }
    break;
  case ASTAR_H_MANHATTAN:
    q->hkind = ASTAR__HK_MANHATTAN;
    q->ha = s * scale;
    break;
  case ASTAR_H_CHEBYSHEV:
    q->hkind = ASTAR__HK_CHEBYSHEV;
    q->ha = (diag && d < s ? d : s) * scale;
    break;
  case ASTAR_H_EUCLIDEAN:
    q->hkind = ASTAR__HK_EUCLIDEAN;
    q->ha = (diag && d / ASTAR__SQRT2 < s ? d / ASTAR__SQRT2 : s) * scale;
    break;
  case ASTAR_H_ZERO:
    q->hkind = ASTAR__HK_ZERO;
    break;
  default:
    q->hkind = ASTAR__HK_CALLBACK;
    q->ha = o->weight;
    q->hfn = o->heuristic_fn;
    q->hctx = o->heuristic_ctx;
    break;
  }
  switch (o->reopen) {
  case ASTAR_REOPEN_ALWAYS:
    q->reopen = true;
    break;
  case ASTAR_REOPEN_NEVER:
    q->reopen = false;
    break;
  default:
    /* A callback may be inconsistent -- but not a consistent landmark
    ** table built for this grid (astar/landmarks.h). */
    q->reopen =
        (h == ASTAR_H_CALLBACK && !(o->heuristic_fn == astar_landmarks_grid_heuristic &&
                                    astar__landmarks_grid_consistent(o->heuristic_ctx, g))) ||
        (h == ASTAR_H_MANHATTAN && diag);
    break;
  }
}

/* The first rule of the jump searches that o or g breaks, as a sentence,
** or NULL. One list, so that the check and its explanation never differ. */
static const char *jump_rule_broken(const astar_options *o, const astar_grid *g) {
  const double s = o->straight_cost, d = o->diagonal_cost;
  if (g->terrain)
    return "the grid has terrain costs; JPS needs uniform costs (clear the terrain, or use A*)";
  if (o->moves != 8) return "JPS needs 8 moves; options.moves is 4 (use A*)";
  if (o->corner != ASTAR_CORNER_NO_CUT)
    return "JPS needs the no-corner-cutting rule (ASTAR_CORNER_NO_CUT); use A* for other rules";
  if (!(s <= d && d < 2.0 * s))
    return "JPS needs straight <= diagonal < 2 x straight move costs (use A*)";
  if (o->heuristic != ASTAR_H_AUTO && o->heuristic != ASTAR_H_OCTILE)
    return "JPS uses the octile heuristic only (heuristic AUTO or OCTILE; use A* for others)";
  if (o->reopen == ASTAR_REOPEN_ALWAYS) return "JPS never reopens nodes (reopen ALWAYS is A*'s)";
  if (o->partial) return "JPS gives no partial paths (options.partial is A*'s)";
  if (o->stop_fn) return "JPS has no stop_fn deadline hook (use A*'s sliced search)";
  if (o->nlayers) return "JPS needs uniform costs; influence layers are A*'s";
  if (o->knowledge) return "JPS searches the true grid; fog of war (knowledge) is A*'s";
  if (o->islands) return "JPS does not take islands (options.islands is A*'s)";
  if (o->turn_penalty != 0.0) return "JPS has no turn penalty (use A*)";
  if (o->terrain_scale != 1.0) return "JPS needs uniform costs; terrain_scale is A*'s";
  /* Every other option of the table JPS's loop does not take. */
  return astar__options_refusal(o, ASTAR__OPT_BIT(OBSERVER) | ASTAR__OPT_BIT(LIMIT));
}

bool astar__jump_rules_ok(const astar_options *o, const astar_grid *g) {
  return jump_rule_broken(o, g) == NULL;
}

const char *astar_unsupported_reason(const astar_options *opt, const astar_grid *grid) {
  astar_options defaults;
  if (!grid) return "no grid";
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  switch (opt->algorithm) {
  case ASTAR_ALGO_ASTAR:
    return NULL;
  case ASTAR_ALGO_JPS:
    return jump_rule_broken(opt, grid);
  default:
    return "unknown options.algorithm";
  }
}

/* ---- path checking ---------------------------------------------------------- */

astar_status astar_path_cost(const astar_grid *grid, const astar_options *opt,
                             const astar_point *path, size_t n, double *cost, size_t *bad_index) {
  astar_options defaults;
  if (bad_index) *bad_index = 0;
  if (!grid || !cost || (n > 0 && !path) || n == 0) return ASTAR_INVALID_ARGUMENT;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  const int rule = astar__rule_of(opt);
  double total = 0.0;
  int last_d = -1; /* direction of the previous step; -1 before the first */
  for (size_t i = 0; i < n; i++) {
    const astar_point p = path[i];
    if (!astar_grid_passable(grid, p.x, p.y)) goto bad;
    if (i == 0) continue;
    const astar_point a = path[i - 1];
    const int dx = p.x - a.x, dy = p.y - a.y;
    int d = -1;
    for (int k = 0; k < 8; k++)
      if (astar__dir_dx[k] == dx && astar__dir_dy[k] == dy) d = k;
    if (d < 0) goto bad;
    const unsigned nb = grid->nb[astar__index(grid, a.x, a.y)];
    if (!astar__move_allowed(rule, nb, d)) goto bad;
    const double c = d < 4 ? opt->straight_cost : opt->diagonal_cost;
    total += grid->terrain ? c * (double)grid->terrain[astar__index(grid, p.x, p.y)] : c;
    if (last_d >= 0 && d != last_d) total += opt->turn_penalty;
    last_d = d;
    continue;
  bad:
    if (bad_index) *bad_index = i;
    return ASTAR_INVALID_ARGUMENT;
  }
  *cost = total;
  return ASTAR_OK;
}

uint64_t astar_path_hash(const astar_point *path, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; i++) {
    const uint32_t v[2] = {(uint32_t)path[i].x, (uint32_t)path[i].y};
    for (int k = 0; k < 2; k++)
      for (int b = 0; b < 32; b += 8) {
        h ^= (v[k] >> b) & 0xffu;
        h *= UINT64_C(1099511628211); /* the FNV 64-bit prime */
      }
  }
  return h;
}
