/*
** layer.c -- influence layers: per-cell extra costs (danger, congestion)
** kept apart from the grid so each player or unit type can have its own.
** Stored in the grid's padded layout (layers.h) so a search reads a value
** with the cell index it already holds.
*/
#include "gameloop/layers.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The grid's size limits (astar/grid.h): a layer must be able to match any
** grid, and nothing larger. */
static bool dims_ok(int32_t w, int32_t h) {
  if (w < 1 || h < 1 || w > ASTAR_GRID_MAX_SIDE || h > ASTAR_GRID_MAX_SIDE) return false;
  return (uint64_t)w * (uint64_t)h <= ASTAR_GRID_MAX_CELLS;
}

/* Values must keep a search's costs finite and its heuristics admissible. */
static bool value_ok(float v) {
  return v >= 0.0f && v <= FLT_MAX; /* false for NaN and +inf */
}

static bool contains(const astar_layer *l, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < l->width && y < l->height;
}

static uint32_t index_of(const astar_layer *l, int32_t x, int32_t y) {
  return (uint32_t)(y + 1) * (uint32_t)l->stride + (uint32_t)(x + 1);
}

astar_status astar_layer_new(astar_layer **out, int32_t width, int32_t height,
                             const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!dims_ok(width, height)) return ASTAR_TOO_LARGE;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_layer *l = astar__malloc(&a, sizeof *l);
  if (!l) return ASTAR_NO_MEMORY;
  l->alloc = a;
  l->width = width;
  l->height = height;
  l->stride = width + 2;
  l->ncells = (uint32_t)l->stride * (uint32_t)(height + 2);
  l->v = astar__calloc(&a, l->ncells, sizeof(float)); /* all-zero bits are 0.0f */
  if (!l->v) {
    astar__free(&a, l, sizeof *l);
    return ASTAR_NO_MEMORY;
  }
  *out = l;
  return ASTAR_OK;
}

void astar_layer_free(astar_layer *layer) {
  if (!layer) return;
  astar_allocator a = layer->alloc;
  astar__free(&a, layer->v, (size_t)layer->ncells * sizeof(float));
  astar__free(&a, layer, sizeof *layer);
}

astar_status astar_layer_set(astar_layer *layer, int32_t x, int32_t y, float value) {
  if (!layer || !value_ok(value)) return ASTAR_INVALID_ARGUMENT;
  if (!contains(layer, x, y)) return ASTAR_OUT_OF_BOUNDS;
  layer->v[index_of(layer, x, y)] = value + 0.0f; /* -0 becomes +0 */
  return ASTAR_OK;
}

float astar_layer_get(const astar_layer *layer, int32_t x, int32_t y) {
  if (!layer || !contains(layer, x, y)) return 0.0f;
  return layer->v[index_of(layer, x, y)];
}

astar_status astar_layer_fill(astar_layer *layer, float value) {
  if (!layer || !value_ok(value)) return ASTAR_INVALID_ARGUMENT;
  value += 0.0f; /* -0 becomes +0 */
  for (int32_t y = 0; y < layer->height; y++) {
    float *row = layer->v + index_of(layer, 0, y);
    for (int32_t x = 0; x < layer->width; x++) row[x] = value; /* the border stays 0 */
  }
  return ASTAR_OK;
}

/*
** The exact arithmetic, so that callers and tests can reproduce it bit for
** bit: for a cell at offset (dx, dy) from the centre,
**   d   = sqrt((double)dx * dx + (double)dy * dy)
**   add = (float)((double)value * (1.0 - d / (double)radius))   when d < radius
**   v   = min(v + add, FLT_MAX)                                 (float sum)
** The saturation keeps every value finite however many cones pile up. The
** centre may lie outside the layer: only the part of the disc inside counts.
*/
astar_status astar_layer_add_cone(astar_layer *layer, int32_t x, int32_t y, float radius,
                                  float value) {
  if (!layer || !value_ok(value)) return ASTAR_INVALID_ARGUMENT;
  if (!(radius > 0.0f && radius <= FLT_MAX)) return ASTAR_INVALID_ARGUMENT;
  const double r = radius, val = value, cx = x, cy = y;
  /* Rows within the radius, clipped; computed in double so that no centre
   * and radius can overflow an integer. The d < r test below is the exact
   * one; these bounds only need to contain it. */
  const double ylo = fmax(0.0, floor(cy - r)), yhi = fmin(layer->height - 1.0, ceil(cy + r));
  if (ylo > yhi) return ASTAR_OK; /* the disc misses the layer */
  for (int32_t iy = (int32_t)ylo; iy <= (int32_t)yhi; iy++) {
    const double dy = iy - cy;
    const double half = sqrt(fmax(r * r - dy * dy, 0.0)) + 1.0; /* a cell of slack */
    const double xlo = fmax(0.0, floor(cx - half)), xhi = fmin(layer->width - 1.0, ceil(cx + half));
    if (xlo > xhi) continue;
    float *row = layer->v + index_of(layer, 0, iy);
    for (int32_t ix = (int32_t)xlo; ix <= (int32_t)xhi; ix++) {
      /* A select, not a branch, at the rim; adding +0 outside the disc
       * leaves a value (never -0) bit for bit as it was. */
      const double dx = ix - cx, d = sqrt(dx * dx + dy * dy);
      const float add = d < r ? (float)(val * (1.0 - d / r)) : 0.0f;
      const float sum = row[ix] + add;         /* never NaN: both operands are >= 0 */
      row[ix] = sum > FLT_MAX ? FLT_MAX : sum; /* not fminf: that is a libm call */
    }
  }
  return ASTAR_OK;
}

int32_t astar_layer_width(const astar_layer *layer) {
  return layer ? layer->width : 0;
}

int32_t astar_layer_height(const astar_layer *layer) {
  return layer ? layer->height : 0;
}
