/*
** heuristics/lm_table.h -- the read-only view of a landmark table
** (astar/landmarks.h) and its bound, shared by the landmarks module and the
** grid's A* loop, which evaluates the bound inline when the caller's
** heuristic callback is astar_landmarks_grid_heuristic (no call per node,
** the same value to the last bit).
*/
#ifndef ASTAR_HEURISTICS_LM_TABLE_H
#define ASTAR_HEURISTICS_LM_TABLE_H

#include "core/internal.h"

#include <math.h>

/* How a row's values make the bound. */
enum {
  ASTAR__LM_FORWARD,   /* FROM distances only: d(L,b) - d(L,a) */
  ASTAR__LM_SYMMETRIC, /* FROM distances used both ways: |d(L,b) - d(L,a)| */
  ASTAR__LM_BACKWARD   /* FROM and TO distances: also d(a,L) - d(b,L) */
};

typedef struct astar__lm_view {
  const float *tbl;      /* [nodes * stride], row v = node v (node-major) */
  const double *slack;   /* [k] e_L subtracted from each landmark's terms, >= 0 */
  double scale;          /* 1 - delta, in (0, 1]: each difference is scaled by it before the
                            slack is subtracted, which makes the bound consistent (below) */
  bool consistent;       /* the bound is consistent (scale < 1 was affordable) */
  uint32_t k;            /* landmarks, >= 1 */
  uint32_t stride;       /* floats a row: k, or 2k in ASTAR__LM_BACKWARD */
  int mode;              /* ASTAR__LM_* */
  int32_t width;         /* grid tables: columns (node = y * width + x) */
  int base_hk;           /* grid tables: the built-in heuristic's ASTAR__HK_* kind */
  double base_a, base_b; /* grid tables: its coefficients (as astar_grid_space ha, hb) */
} astar__lm_view;

/* The landmark bound between the rows ra (node a) and rb (node b): the
** largest term, scale x (difference of two values) - slack, or 0. A term with an infinite value is
*inf
** or NaN: `t < HUGE_VAL` is false for both, so it adds nothing. */
ASTAR__INLINE double astar__lm_bound(const astar__lm_view *v, const float *ra, const float *rb) {
  const uint32_t k = v->k;
  const double *e = v->slack, sc = v->scale;
  double h = 0.0;
  for (uint32_t i = 0; i < k; i++) {
    const double t = sc * ((double)rb[i] - (double)ra[i]) - e[i];
    if (t > h && t < HUGE_VAL) h = t;
  }
  if (v->mode == ASTAR__LM_SYMMETRIC) {
    for (uint32_t i = 0; i < k; i++) {
      const double t = sc * ((double)ra[i] - (double)rb[i]) - e[i];
      if (t > h && t < HUGE_VAL) h = t;
    }
  } else if (v->mode == ASTAR__LM_BACKWARD) {
    for (uint32_t i = 0; i < k; i++) {
      const double t = sc * ((double)ra[k + i] - (double)rb[k + i]) - e[i];
      if (t > h && t < HUGE_VAL) h = t;
    }
  }
  return h;
}

/* When `ctx` is an astar_landmarks built for exactly `grid` and current
** (grid version unchanged), fill *out and return true; false otherwise
** (the caller then leaves the callback in charge). */
bool astar__landmarks_grid_view(const void *ctx, const void *grid, astar__lm_view *out);

#endif /* ASTAR_HEURISTICS_LM_TABLE_H */
