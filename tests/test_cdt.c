/*
** test_cdt.c -- the exact predicates (src/mesh/predicates.c) and the
** constrained Delaunay triangulation (src/mesh/cdt.c).
**
** Predicates: against an exact oracle written here in another way (the
** 3x3 and 4x4 determinants expanded into monomials of the raw coordinates,
** every monomial summed exactly into a wide fixed-point accumulator of
** 16-bit digits), on random doubles, small integers, points on a line
** moved by one ulp, cocircular integer points (shifted, scaled, perturbed),
** huge, tiny and subnormal magnitudes and mixtures of them; plus the
** symmetries (cyclic and swap).
*/
#include <astar/astar.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mesh/mesh.h"
#include "util/failalloc.h"
#include "util/randmap.h"

/* ---- the oracle -------------------------------------------------------------
** A double x = m * 2^e (|m| < 2^53) is stored as five 16-bit digits of
** |m| << r at digit position o, where e + 1136 = 16 o + r: every digit of
** every input sits on a 16-bit boundary of one common scale (2^-1136). A
** monomial of k factors is the sum over digit choices of products of k
** 16-bit digits (exact in 64 bits for k <= 4), each added, split in four
** 16-bit parts, into int64 cells at the summed position. The cells are
** normalised at the end; the sign is the sign of the top. */
#define ORC_CELLS 600

typedef struct {
  int sign, pos;
  uint32_t dig[5];
} ofac;

static ofac to_fac(double x) {
  ofac f;
  memset(&f, 0, sizeof f);
  if (x == 0.0) return f;
  int ex;
  double fr = frexp(x, &ex);
  int64_t m = (int64_t)ldexp(fr, 53);
  int e = ex - 53 + 1136;
  f.sign = m < 0 ? -1 : 1;
  uint64_t u = (uint64_t)(m < 0 ? -m : m);
  f.pos = e / 16;
  int r = e % 16;
  /* u << r has up to 68 bits: the low 64 and the rest. */
  uint64_t lo = u << r, hi = r ? u >> (64 - r) : 0;
  for (int i = 0; i < 4; i++) f.dig[i] = (uint32_t)((lo >> (16 * i)) & 0xffffu);
  f.dig[4] = (uint32_t)hi;
  return f;
}

/* Add sign * prod(f[i..k-1]) * (p at pos) into the cells, digit by digit,
** skipping zero digits. */
static void add_rec(int64_t *cells, int sign, const ofac *f, int i, int k, uint64_t p, int pos) {
  if (i == k) {
    for (int j = 0; j < 4; j++) cells[pos + j] += sign * (int64_t)((p >> (16 * j)) & 0xffffu);
    return;
  }
  for (int d = 0; d < 5; d++)
    if (f[i].dig[d]) add_rec(cells, sign, f, i + 1, k, p * f[i].dig[d], pos + f[i].pos + d);
}

static void add_monomial(int64_t *cells, int sign, const ofac *f, int k) {
  for (int i = 0; i < k; i++) {
    if (f[i].sign == 0) return;
    sign *= f[i].sign;
  }
  add_rec(cells, sign, f, 0, k, 1, 0);
}

static int cells_sign(int64_t *cells) {
  int64_t carry = 0;
  for (int i = 0; i < ORC_CELLS; i++) {
    int64_t v = cells[i] + carry;
    /* floor division by 2^16 */
    carry = v >= 0 ? v / 65536 : -((-v + 65535) / 65536);
    cells[i] = v - carry * 65536;
  }
  if (carry) return carry > 0 ? 1 : -1;
  for (int i = ORC_CELLS - 1; i >= 0; i--)
    if (cells[i]) return 1; /* digits are in [0, 2^16) now */
  return 0;
}

static int oracle_orient(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  int64_t cells[ORC_CELLS];
  memset(cells, 0, sizeof cells);
  /* det [x y 1] = ax by - ax cy - ay bx + ay cx + bx cy - by cx */
  const double t[6][2] = {{a.x, b.y}, {a.x, c.y}, {a.y, b.x}, {a.y, c.x}, {b.x, c.y}, {b.y, c.x}};
  const int s[6] = {1, -1, -1, 1, 1, -1};
  for (int i = 0; i < 6; i++) {
    ofac f[2] = {to_fac(t[i][0]), to_fac(t[i][1])};
    add_monomial(cells, s[i], f, 2);
  }
  return cells_sign(cells);
}

/* det of rows (x, y, x^2 + y^2, 1) for a, b, c, d: the sum over the 24
** permutations, the lifted column giving two monomials. */
static int oracle_incircle(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d) {
  int64_t cells[ORC_CELLS];
  memset(cells, 0, sizeof cells);
  const astar_vec2 p[4] = {a, b, c, d};
  int perm[4];
  for (perm[0] = 0; perm[0] < 4; perm[0]++)
    for (perm[1] = 0; perm[1] < 4; perm[1]++)
      for (perm[2] = 0; perm[2] < 4; perm[2]++) {
        perm[3] = 6 - perm[0] - perm[1] - perm[2];
        if (perm[0] == perm[1] || perm[0] == perm[2] || perm[1] == perm[2]) continue;
        int inv = 0;
        for (int i = 0; i < 4; i++)
          for (int j = i + 1; j < 4; j++) inv += perm[i] > perm[j];
        int sign = (inv & 1) ? -1 : 1;
        /* row i takes column perm[i]: 0 x, 1 y, 2 lift, 3 one */
        for (int half = 0; half < 2; half++) {
          ofac f[4];
          int k = 0;
          for (int i = 0; i < 4; i++) {
            switch (perm[i]) {
            case 0:
              f[k++] = to_fac(p[i].x);
              break;
            case 1:
              f[k++] = to_fac(p[i].y);
              break;
            case 2:
              f[k++] = to_fac(half ? p[i].y : p[i].x);
              f[k++] = to_fac(half ? p[i].y : p[i].x);
              break;
            default:
              break;
            }
          }
          add_monomial(cells, sign, f, k);
        }
      }
  return cells_sign(cells);
}

/* ---- predicate tests ------------------------------------------------------- */

static long pred_checks;

static void check_orient(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  int want = oracle_orient(a, b, c);
  int got = astar__orient2d(a, b, c);
  pred_checks++;
  if (got != want)
    FAILF("orient2d((%a,%a),(%a,%a),(%a,%a)) = %d, exact %d", a.x, a.y, b.x, b.y, c.x, c.y, got,
          want);
  /* Symmetries: cyclic shifts keep the sign, a swap flips it. */
  if (astar__orient2d(b, c, a) != want || astar__orient2d(c, a, b) != want ||
      astar__orient2d(b, a, c) != -want)
    FAILF("orient2d symmetry ((%a,%a),(%a,%a),(%a,%a))", a.x, a.y, b.x, b.y, c.x, c.y);
}

static void check_incircle(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d) {
  int want = oracle_incircle(a, b, c, d);
  int got = astar__incircle(a, b, c, d);
  pred_checks++;
  if (got != want)
    FAILF("incircle((%a,%a),(%a,%a),(%a,%a),(%a,%a)) = %d, exact %d", a.x, a.y, b.x, b.y, c.x, c.y,
          d.x, d.y, got, want);
  if (astar__incircle(b, c, a, d) != want || astar__incircle(b, a, c, d) != -want)
    FAILF("incircle symmetry");
}

static double rnd_in(rng *r, double lo, double hi) {
  return lo + (hi - lo) * rng_unit(r);
}

static astar_vec2 v2(double x, double y) {
  return (astar_vec2){x, y};
}

/* x moved by k ulps (k may be negative). */
static double ulps(double x, int k) {
  while (k > 0) {
    x = nextafter(x, INFINITY);
    k--;
  }
  while (k < 0) {
    x = nextafter(x, -INFINITY);
    k++;
  }
  return x;
}

static void test_oracle_sanity(void) {
  /* The oracle itself on known answers. */
  CHECK_EQ(oracle_orient(v2(0, 0), v2(1, 0), v2(0, 1)), 1);
  CHECK_EQ(oracle_orient(v2(0, 0), v2(0, 1), v2(1, 0)), -1);
  CHECK_EQ(oracle_orient(v2(0, 0), v2(1, 1), v2(3, 3)), 0);
  /* 3 * 0.1 > 0.3 in doubles: (0.1, 0.3) is right of the line y = 3x */
  CHECK_EQ(oracle_orient(v2(0, 0), v2(1, 3), v2(0.1, 0.3)), -1);
  CHECK_EQ(oracle_incircle(v2(0, 0), v2(1, 0), v2(0, 1), v2(0.25, 0.25)), 1);
  CHECK_EQ(oracle_incircle(v2(0, 0), v2(1, 0), v2(0, 1), v2(2, 2)), -1);
  CHECK_EQ(oracle_incircle(v2(0, 0), v2(1, 0), v2(0, 1), v2(1, 1)), 0);
  CHECK_EQ(oracle_incircle(v2(5, 0), v2(0, 5), v2(-5, 0), v2(3, -4)), 0);
  CHECK_EQ(oracle_incircle(v2(5, 0), v2(0, 5), v2(-5, 0), v2(3, ulps(-4, 1))), 1);
  CHECK_EQ(oracle_incircle(v2(5, 0), v2(0, 5), v2(-5, 0), v2(3, ulps(-4, -1))), -1);
  CHECK_EQ(astar__orient2d(v2(0, 0), v2(1, 3), v2(0.1, 0.3)), -1);
}

static void test_orient_random(void) {
  rng r;
  rng_seed(&r, 11);
  for (int i = 0; i < 20000; i++) {
    double s = (i % 3 == 0) ? 1e-3 : (i % 3 == 1) ? 1.0 : 1e6;
    astar_vec2 a = v2(rnd_in(&r, -s, s), rnd_in(&r, -s, s));
    astar_vec2 b = v2(rnd_in(&r, -s, s), rnd_in(&r, -s, s));
    astar_vec2 c = v2(rnd_in(&r, -s, s), rnd_in(&r, -s, s));
    check_orient(a, b, c);
    /* small integers: many exact zeros */
    a = v2(rng_range(&r, -3, 3), rng_range(&r, -3, 3));
    b = v2(rng_range(&r, -3, 3), rng_range(&r, -3, 3));
    c = v2(rng_range(&r, -3, 3), rng_range(&r, -3, 3));
    check_orient(a, b, c);
  }
}

/* Points on the line a-b (as rounded), then moved by a few ulps: the
** filter cannot decide, the exact stages must. */
static void test_orient_near_line(void) {
  rng r;
  rng_seed(&r, 12);
  int zeros = 0, nonzero = 0;
  for (int i = 0; i < 20000; i++) {
    double s = (i % 4 == 0) ? 1.0 : (i % 4 == 1) ? 1e3 : (i % 4 == 2) ? 1e-7 : 1e12;
    astar_vec2 a = v2(rnd_in(&r, -s, s), rnd_in(&r, -s, s));
    astar_vec2 b = v2(rnd_in(&r, -s, s), rnd_in(&r, -s, s));
    if (i % 5 == 0) b = v2(ulps(a.x, (int)rng_range(&r, -3, 3)), rnd_in(&r, -s, s));
    double t = rnd_in(&r, -2, 3);
    astar_vec2 c = v2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
    c.x = ulps(c.x, rng_range(&r, -2, 2));
    c.y = ulps(c.y, rng_range(&r, -2, 2));
    int want = oracle_orient(a, b, c);
    if (want == 0)
      zeros++;
    else
      nonzero++;
    check_orient(a, b, c);
    /* exactly collinear: integers, and halves of a line through the origin */
    int64_t k = rng_range(&r, -1000000, 1000000);
    check_orient(v2(0, 0), v2(3, 7), v2(3.0 * (double)k, 7.0 * (double)k));
    check_orient(v2(ulps(0.5, 1), 0.5), v2(1, 1), v2(2, 2));
  }
  /* the cases must cover both answers */
  CHECKF(zeros > 100 && nonzero > 1000, "zeros %d nonzero %d", zeros, nonzero);
}

/* Integer points of circles x^2 + y^2 = R^2 (Pythagorean), shifted far from
** the origin, scaled by powers of two and moved by an ulp. */
static void test_incircle_cocircular(void) {
  static const int pts[][2] = {{5, 0},  {3, 4},   {4, 3},   {0, 5},  {-3, 4}, {-4, 3},
                               {-5, 0}, {-3, -4}, {-4, -3}, {0, -5}, {3, -4}, {4, -3}};
  static const int pts65[][2] = {{65, 0},  {63, 16},  {60, 25},  {56, 33},   {52, 39},
                                 {39, 52}, {33, -56}, {-25, 60}, {-16, -63}, {-65, 0}};
  rng r;
  rng_seed(&r, 13);
  int zeros = 0;
  for (int i = 0; i < 6000; i++) {
    const int(*P)[2] = (i & 1) ? pts65 : pts;
    int n = (i & 1) ? 10 : 12;
    int ia = rng_range(&r, 0, n - 1), ib = rng_range(&r, 0, n - 1), ic = rng_range(&r, 0, n - 1),
        id = rng_range(&r, 0, n - 1);
    double ox = (double)rng_range(&r, -1000, 1000) * ((i % 3 == 0) ? 1048576.0 : 1.0);
    double oy = (double)rng_range(&r, -1000, 1000);
    double sc = ldexp(1.0, rng_range(&r, -60, 60));
    astar_vec2 a = v2((P[ia][0] + ox) * sc, (P[ia][1] + oy) * sc);
    astar_vec2 b = v2((P[ib][0] + ox) * sc, (P[ib][1] + oy) * sc);
    astar_vec2 c = v2((P[ic][0] + ox) * sc, (P[ic][1] + oy) * sc);
    astar_vec2 d = v2((P[id][0] + ox) * sc, (P[id][1] + oy) * sc);
    if (i % 4 == 2) d.x = ulps(d.x, rng_range(&r, -1, 1));
    if (i % 4 == 3) d.y = ulps(d.y, rng_range(&r, -1, 1));
    if (oracle_incircle(a, b, c, d) == 0) zeros++;
    check_incircle(a, b, c, d);
  }
  CHECKF(zeros > 1000, "zeros %d", zeros);
  /* a grid of integers: every unit square is cocircular */
  for (int i = 0; i < 3000; i++) {
    astar_vec2 q[4];
    for (int k = 0; k < 4; k++) q[k] = v2(rng_range(&r, 0, 4), rng_range(&r, 0, 4));
    check_incircle(q[0], q[1], q[2], q[3]);
  }
}

static void test_incircle_random(void) {
  rng r;
  rng_seed(&r, 14);
  for (int i = 0; i < 8000; i++) {
    double s = (i % 3 == 0) ? 1e-3 : (i % 3 == 1) ? 1.0 : 1e6;
    astar_vec2 q[4];
    for (int k = 0; k < 4; k++) q[k] = v2(rnd_in(&r, -s, s), rnd_in(&r, -s, s));
    check_incircle(q[0], q[1], q[2], q[3]);
    /* d near the circle: on a ray from the centre of a, b, c (rounded) */
    double ax = q[0].x - q[2].x, ay = q[0].y - q[2].y, bx = q[1].x - q[2].x, by = q[1].y - q[2].y;
    double den = 2 * (ax * by - ay * bx);
    if (den == 0) continue;
    double ux = (by * (ax * ax + ay * ay) - ay * (bx * bx + by * by)) / den;
    double uy = (ax * (bx * bx + by * by) - bx * (ax * ax + ay * ay)) / den;
    double rad = sqrt(ux * ux + uy * uy);
    double th = rnd_in(&r, 0, 6.283185307179586);
    astar_vec2 d = v2(q[2].x + ux + rad * cos(th), q[2].y + uy + rad * sin(th));
    d.x = ulps(d.x, rng_range(&r, -2, 2));
    check_incircle(q[0], q[1], q[2], d);
  }
}

/* Magnitudes at the ends of the double range and mixtures of them: the
** expansions would overflow or lose bits; the big-integer stage answers. */
static void test_extreme_magnitudes(void) {
  rng r;
  rng_seed(&r, 15);
  const double mags[] = {1e300,
                         1e-300,
                         4.9406564584124654e-324,
                         2.2250738585072014e-308,
                         1e150,
                         1e-150,
                         0x1p200,
                         0x1p-200,
                         0x1p201,
                         0x1p-201,
                         1.0,
                         1.7e308};
  const int nm = (int)(sizeof mags / sizeof mags[0]);
  for (int i = 0; i < 3000; i++) {
    astar_vec2 q[4];
    for (int k = 0; k < 4; k++) {
      double mx = mags[rng_range(&r, 0, nm - 1)], my = mags[rng_range(&r, 0, nm - 1)];
      q[k] = v2(mx * rnd_in(&r, -1, 1), my * rnd_in(&r, -1, 1));
      if (rng_range(&r, 0, 3) == 0) q[k].x = q[(k + 3) % 4].x;
      if (rng_range(&r, 0, 3) == 0) q[k].y = ulps(q[(k + 3) % 4].y, rng_range(&r, -1, 1));
    }
    check_orient(q[0], q[1], q[2]);
    check_incircle(q[0], q[1], q[2], q[3]);
    /* the same near-degenerate shape at every scale: exact scaling by 2^k
    ** keeps the sign, and every scale must agree with the oracle */
    int k = rng_range(&r, -1070, 1000);
    astar_vec2 a = v2(ldexp(1, k), ldexp(1, k)), b = v2(ldexp(3, k), ldexp(3, k));
    astar_vec2 c = v2(ldexp(ulps(2, rng_range(&r, -1, 1)), k), ldexp(2, k));
    check_orient(a, b, c);
    astar_vec2 e = v2(ldexp(5, k - 3), 0), f = v2(0, ldexp(5, k - 3)), g = v2(-ldexp(5, k - 3), 0);
    astar_vec2 h = v2(ldexp(3, k - 3), ldexp(ulps(-4, rng_range(&r, -1, 1)), k - 3));
    check_incircle(e, f, g, h);
  }
  /* subnormal triangles */
  astar_vec2 a = v2(0, 0), b = v2(4.9406564584124654e-324, 0), c = v2(0, 4.9406564584124654e-324);
  CHECK_EQ(astar__orient2d(a, b, c), 1);
  CHECK_EQ(astar__incircle(a, b, c, v2(4.9406564584124654e-324, 4.9406564584124654e-324)), 0);
  /* huge and tiny in one call */
  CHECK_EQ(astar__orient2d(v2(1e300, 1e-300), v2(-1e300, -1e-300), v2(0, 0)), 0);
  CHECK_EQ(astar__orient2d(v2(1e300, 1e-300), v2(-1e300, -1e-300), v2(0, 4.9406564584124654e-324)),
           -1);
  check_orient(v2(1.7e308, -1.7e308), v2(-1.7e308, 1.7e308), v2(1e-320, 1e-320));
}

/* ---- triangulation checks --------------------------------------------------- */

typedef struct seg {
  int32_t a, b;
} seg;

static int32_t opp_in(const astar__cdt_tri *T, int32_t u, int32_t t) {
  const astar__cdt_tri *s = &T[u];
  for (int j = 0; j < 3; j++)
    if (s->n[j] == t) return j;
  return -1;
}

/* Structure: CCW, links symmetric with the same edge and count, only the
** bounding triangle's edges without a neighbour, every vertex used, Euler.
** Returns the failures found. */
static int check_structure(astar__cdt *c) {
  int bad = 0;
  size_t nt = astar__cdt_tri_slots(c), nv = astar__cdt_vertex_count(c), live = 0;
  astar__cdt_tri *T = astar__cdt_tris(c);
  char *used = calloc(nv, 1);
  for (size_t t = 0; t < nt; t++) {
    const astar__cdt_tri *r = &T[t];
    if (r->v[0] < 0) continue;
    live++;
    for (int k = 0; k < 3; k++) {
      if (r->v[k] < 0 || (size_t)r->v[k] >= nv) {
        FAILF("triangle %zu: vertex %d", t, r->v[k]);
        bad++;
        continue;
      }
      used[r->v[k]] = 1;
    }
    if (astar__orient2d(astar__cdt_vertex(c, r->v[0]), astar__cdt_vertex(c, r->v[1]),
                        astar__cdt_vertex(c, r->v[2])) <= 0) {
      FAILF("triangle %zu (%d %d %d) not counter-clockwise", t, r->v[0], r->v[1], r->v[2]);
      bad++;
    }
    for (int k = 0; k < 3; k++) {
      int32_t a = r->v[(k + 1) % 3], b = r->v[(k + 2) % 3], u = r->n[k];
      if (u < 0) {
        if (a >= 3 || b >= 3) {
          FAILF("triangle %zu edge %d-%d without neighbour", t, a, b);
          bad++;
        }
        continue;
      }
      int j = opp_in(T, u, (int32_t)t);
      if (j < 0) {
        FAILF("triangle %zu -> %d not linked back", t, u);
        bad++;
        continue;
      }
      const astar__cdt_tri *s = &T[u];
      if (s->v[(j + 1) % 3] != b || s->v[(j + 2) % 3] != a || s->c[j] != r->c[k]) {
        FAILF("triangles %zu / %d disagree on edge %d-%d", t, u, a, b);
        bad++;
      }
    }
  }
  for (size_t v = 0; v < nv; v++)
    if (!used[v]) {
      FAILF("vertex %zu in no triangle", v);
      bad++;
    }
  /* Euler for a triangulated triangle: T = 2 V - 5 */
  if (live != 2 * nv - 5) {
    FAILF("Euler: %zu triangles for %zu vertices", live, nv);
    bad++;
  }
  free(used);
  return bad;
}

/* Every unconstrained edge locally Delaunay (exact in-circle). */
static int check_delaunay(astar__cdt *c) {
  int bad = 0;
  size_t nt = astar__cdt_tri_slots(c);
  astar__cdt_tri *T = astar__cdt_tris(c);
  for (size_t t = 0; t < nt; t++) {
    const astar__cdt_tri *r = &T[t];
    if (r->v[0] < 0) continue;
    for (int k = 0; k < 3; k++) {
      int32_t u = r->n[k];
      if (u < 0 || r->c[k]) continue;
      int j = opp_in(T, u, (int32_t)t);
      if (j < 0) continue;
      if (astar__incircle(astar__cdt_vertex(c, r->v[0]), astar__cdt_vertex(c, r->v[1]),
                          astar__cdt_vertex(c, r->v[2]), astar__cdt_vertex(c, T[u].v[j])) > 0) {
        FAILF("edge %d-%d not locally Delaunay", r->v[(k + 1) % 3], r->v[(k + 2) % 3]);
        bad++;
      }
    }
  }
  return bad;
}

/* Is v on the closed segment a-b (exactly)? */
static int on_segment(astar_vec2 a, astar_vec2 b, astar_vec2 v) {
  if (astar__orient2d(a, b, v) != 0) return 0;
  return fmin(a.x, b.x) <= v.x && v.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= v.y &&
         v.y <= fmax(a.y, b.y);
}

static int cmp_param(const void *x, const void *y) {
  const double *a = x, *b = y;
  return (a[0] > b[0]) - (a[0] < b[0]);
}

/* Exact constraint check, for inputs whose split points lie exactly on
** their segments: along every segment the vertices on it follow each other
** by edges, and every edge's count is the number of segments along it. */
static int check_constraints_exact(astar__cdt *c, const seg *sg, size_t ns) {
  int bad = 0;
  size_t nv = astar__cdt_vertex_count(c), nt = astar__cdt_tri_slots(c);
  astar__cdt_tri *T = astar__cdt_tris(c);
  /* expected counts per directed edge slot, by a map from (t, k) */
  int *want = calloc(nt * 3, sizeof *want);
  double *par = malloc(nv * 2 * sizeof *par);
  for (size_t i = 0; i < ns; i++) {
    astar_vec2 A = astar__cdt_vertex(c, sg[i].a), B = astar__cdt_vertex(c, sg[i].b);
    if (sg[i].a == sg[i].b) continue;
    size_t m = 0;
    for (size_t v = 3; v < nv; v++) {
      astar_vec2 V = astar__cdt_vertex(c, (int32_t)v);
      if (!on_segment(A, B, V)) continue;
      par[2 * m] =
          fabs(B.x - A.x) > fabs(B.y - A.y) ? (V.x - A.x) / (B.x - A.x) : (V.y - A.y) / (B.y - A.y);
      par[2 * m + 1] = (double)v;
      m++;
    }
    qsort(par, m, 2 * sizeof *par, cmp_param);
    for (size_t j = 0; j + 1 < m; j++) {
      int32_t u = (int32_t)par[2 * j + 1], w = (int32_t)par[2 * j + 3];
      int found = 0;
      for (size_t t = 0; t < nt; t++)
        for (int k = 0; k < 3; k++) {
          int32_t x = T[t].v[(k + 1) % 3], y = T[t].v[(k + 2) % 3];
          if ((x == u && y == w) || (x == w && y == u)) {
            want[3 * t + k]++;
            found++;
          }
        }
      if (!found) {
        FAILF("segment %d-%d: no edge %d-%d", sg[i].a, sg[i].b, u, w);
        bad++;
      }
    }
  }
  for (size_t t = 0; t < nt; t++)
    for (int k = 0; k < 3; k++)
      if (T[t].v[0] >= 0 && T[t].c[k] != want[3 * t + k]) {
        FAILF("edge %d-%d: count %d, segments along it %d", T[t].v[(k + 1) % 3],
              T[t].v[(k + 2) % 3], T[t].c[k], want[3 * t + k]);
        bad++;
      }
  free(want);
  free(par);
  return bad;
}

/* Loose constraint check (split points rounded): from a, constrained edges
** lead to b through vertices within `tol` of the segment; every
** constrained edge lies along some segment. */
static double seg_dist(astar_vec2 a, astar_vec2 b, astar_vec2 p) {
  double dx = b.x - a.x, dy = b.y - a.y, l = dx * dx + dy * dy;
  double t = l > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
  return sqrt(ex * ex + ey * ey);
}

static int check_constraints_loose(astar__cdt *c, const seg *sg, size_t ns, double tol) {
  int bad = 0;
  size_t nv = astar__cdt_vertex_count(c), nt = astar__cdt_tri_slots(c);
  astar__cdt_tri *T = astar__cdt_tris(c);
  int32_t *stack = malloc(nv * sizeof *stack);
  char *seen = malloc(nv);
  for (size_t i = 0; i < ns; i++) {
    if (sg[i].a == sg[i].b) continue;
    astar_vec2 A = astar__cdt_vertex(c, sg[i].a), B = astar__cdt_vertex(c, sg[i].b);
    memset(seen, 0, nv);
    size_t n = 0;
    stack[n++] = sg[i].a;
    seen[sg[i].a] = 1;
    while (n && !seen[sg[i].b]) {
      int32_t u = stack[--n];
      for (size_t t = 0; t < nt; t++)
        for (int k = 0; k < 3; k++) {
          if (!T[t].c[k] || T[t].v[(k + 1) % 3] != u) continue;
          int32_t w = T[t].v[(k + 2) % 3];
          if (seen[w] || seg_dist(A, B, astar__cdt_vertex(c, w)) > tol) continue;
          seen[w] = 1;
          stack[n++] = w;
        }
    }
    if (!seen[sg[i].b]) {
      FAILF("segment %d-%d not made of constrained edges", sg[i].a, sg[i].b);
      bad++;
    }
  }
  for (size_t t = 0; t < nt; t++)
    for (int k = 0; k < 3; k++) {
      if (!T[t].c[k]) continue;
      astar_vec2 P = astar__cdt_vertex(c, T[t].v[(k + 1) % 3]),
                 Q = astar__cdt_vertex(c, T[t].v[(k + 2) % 3]);
      int along = 0;
      for (size_t i = 0; i < ns && !along; i++) {
        astar_vec2 A = astar__cdt_vertex(c, sg[i].a), B = astar__cdt_vertex(c, sg[i].b);
        along = seg_dist(A, B, P) <= tol && seg_dist(A, B, Q) <= tol;
      }
      if (!along) {
        FAILF("constrained edge %d-%d along no segment", T[t].v[(k + 1) % 3], T[t].v[(k + 2) % 3]);
        bad++;
      }
    }
  free(stack);
  free(seen);
  return bad;
}

static int check_all(astar__cdt *c) {
  return check_structure(c) + check_delaunay(c);
}

static astar__cdt *new_cdt(double lo, double hi, const astar_allocator *al) {
  astar__cdt *c = NULL;
  astar_status st = astar__cdt_new(&c, v2(lo, lo), v2(hi, hi), al);
  CHECK_EQ(st, ASTAR_OK);
  return c;
}

/* ---- triangulation tests ----------------------------------------------------- */

static void test_cdt_random_points(void) {
  rng r;
  rng_seed(&r, 21);
  for (int round = 0; round < 6; round++) {
    int n = round < 3 ? 50 << round : 1000;
    astar__cdt *c = new_cdt(0, 100, NULL);
    astar_vec2 *p = malloc((size_t)n * sizeof *p);
    int32_t *ids = malloc((size_t)n * sizeof *ids);
    for (int i = 0; i < n; i++) p[i] = v2(rnd_in(&r, 0, 100), rnd_in(&r, 0, 100));
    if (round & 1) {
      CHECK_EQ(astar__cdt_insert_points(c, p, (size_t)n, ids), ASTAR_OK);
    } else {
      for (int i = 0; i < n; i++) CHECK_EQ(astar__cdt_insert_point(c, p[i], &ids[i]), ASTAR_OK);
    }
    CHECK_EQ(astar__cdt_vertex_count(c), (size_t)n + 3);
    for (int i = 0; i < n; i++) {
      astar_vec2 q = astar__cdt_vertex(c, ids[i]);
      CHECK(q.x == p[i].x && q.y == p[i].y);
    }
    CHECK_EQ(check_all(c), 0);
    /* locate: the triangle found holds the point */
    for (int i = 0; i < 200; i++) {
      astar_vec2 q = v2(rnd_in(&r, -10, 110), rnd_in(&r, -10, 110));
      int32_t t = astar__cdt_locate(c, q);
      CHECK(t >= 0);
      if (t < 0) continue;
      const astar__cdt_tri *T = &astar__cdt_tris(c)[t];
      for (int k = 0; k < 3; k++)
        CHECK(astar__orient2d(astar__cdt_vertex(c, T->v[(k + 1) % 3]),
                              astar__cdt_vertex(c, T->v[(k + 2) % 3]), q) >= 0);
    }
    CHECK_EQ(astar__cdt_locate(c, v2(1e9, 1e9)), -1);
    astar__cdt_free(c);
    free(p);
    free(ids);
  }
}

static void test_cdt_degenerate_points(void) {
  /* collinear, then duplicates, then a full integer grid (cocircular
  ** everywhere) in shuffled order */
  astar__cdt *c = new_cdt(-10, 110, NULL);
  int32_t id, first[101];
  for (int i = 0; i <= 100; i++) {
    CHECK_EQ(astar__cdt_insert_point(c, v2(i, 2 * i - 100 > 0 ? i : i), &first[i]), ASTAR_OK);
  }
  CHECK_EQ(check_all(c), 0);
  for (int i = 100; i >= 0; i--) {
    CHECK_EQ(astar__cdt_insert_point(c, v2(i, i), &id), ASTAR_OK);
    CHECK_EQ(id, first[i]);
  }
  CHECK_EQ(astar__cdt_vertex_count(c), 104u);
  rng r;
  rng_seed(&r, 22);
  int order[41 * 41];
  for (int i = 0; i < 41 * 41; i++) order[i] = i;
  for (int i = 41 * 41 - 1; i > 0; i--) {
    int j = rng_range(&r, 0, i), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int i = 0; i < 41 * 41; i++)
    CHECK_EQ(astar__cdt_insert_point(c, v2(order[i] % 41 * 2.5, order[i] / 41 * 2.5), &id),
             ASTAR_OK);
  CHECK_EQ(check_all(c), 0);
  /* outside the bounding triangle / not finite */
  CHECK_EQ(astar__cdt_insert_point(c, v2(1e12, 0), &id), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar__cdt_insert_point(c, v2(NAN, 0), &id), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar__cdt_insert_point(c, astar__cdt_vertex(c, 0), &id), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(check_all(c), 0);
  astar__cdt_free(c);
}

/* Grid points, segments between them along the 8 directions: every
** crossing point is a grid point or a half-integer, exact. */
static size_t grid_segments(rng *r, astar__cdt *c, int n, int32_t *gid, seg *sg, size_t ns,
                            int maxlen) {
  static const int dir[8][2] = {{1, 0},  {0, 1},  {1, 1},   {1, -1},
                                {-1, 0}, {0, -1}, {-1, -1}, {-1, 1}};
  size_t k = 0;
  while (k < ns) {
    int x = rng_range(r, 0, n - 1), y = rng_range(r, 0, n - 1), d = rng_range(r, 0, 7);
    int len = rng_range(r, 1, maxlen);
    int x2 = x + dir[d][0] * len, y2 = y + dir[d][1] * len;
    if (x2 < 0 || y2 < 0 || x2 >= n || y2 >= n) continue;
    sg[k].a = gid[y * n + x];
    sg[k].b = gid[y2 * n + x2];
    CHECK_EQ(astar__cdt_insert_segment(c, sg[k].a, sg[k].b), ASTAR_OK);
    k++;
  }
  return k;
}

static void test_cdt_grid_constraints(void) {
  rng r;
  rng_seed(&r, 23);
  for (int round = 0; round < 4; round++) {
    int n = 12 + 4 * round;
    astar__cdt *c = new_cdt(0, n, NULL);
    int32_t gid[28 * 28];
    /* round 0, 1: every grid point first; 2, 3: only some, segments then
    ** run through the others as they are inserted later */
    for (int i = 0; i < n * n; i++) {
      if (round >= 2 && rng_range(&r, 0, 2) == 0) continue;
      CHECK_EQ(astar__cdt_insert_point(c, v2(i % n, i / n), &gid[i]), ASTAR_OK);
    }
    if (round >= 2) /* the rest, before the segments that need them */
      for (int i = 0; i < n * n; i++)
        CHECK_EQ(astar__cdt_insert_point(c, v2(i % n, i / n), &gid[i]), ASTAR_OK);
    seg sg[200];
    size_t ns = grid_segments(&r, c, n, gid, sg, 40 + 40 * (size_t)round, n / 2);
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(check_constraints_exact(c, sg, ns), 0);
    CHECK(astar__cdt_vertex_count(c) > (size_t)(n * n) + 3); /* half-integer crossings */
    /* points added after the segments: on them (splits) and off them */
    for (int i = 0; i < 60; i++) {
      int32_t id;
      CHECK_EQ(
          astar__cdt_insert_point(
              c, v2(rng_range(&r, 0, 2 * n - 2) * 0.5, rng_range(&r, 0, 2 * n - 2) * 0.5), &id),
          ASTAR_OK);
    }
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(check_constraints_exact(c, sg, ns), 0);
    astar__cdt_free(c);
  }
}

/* Random segments between random points: crossings everywhere, split at
** rounded points; touching (shared end points), overlapping (the same
** segment twice) and collinear chains. */
static void test_cdt_random_constraints(void) {
  rng r;
  rng_seed(&r, 24);
  for (int round = 0; round < 5; round++) {
    astar__cdt *c = new_cdt(0, 100, NULL);
    int n = 300;
    int32_t ids[300];
    for (int i = 0; i < n; i++)
      CHECK_EQ(astar__cdt_insert_point(c, v2(rnd_in(&r, 0, 100), rnd_in(&r, 0, 100)), &ids[i]),
               ASTAR_OK);
    seg sg[120];
    size_t ns = 0;
    for (int i = 0; i < 60 + 10 * round; i++) {
      int a = rng_range(&r, 0, n - 1), b = rng_range(&r, 0, n - 1);
      if (i % 7 == 3 && ns) a = (int)(rng_range(&r, 0, (int32_t)ns - 1)); /* re-use an index */
      sg[ns].a = ids[a];
      sg[ns].b = ids[b];
      CHECK_EQ(astar__cdt_insert_segment(c, sg[ns].a, sg[ns].b), ASTAR_OK);
      ns++;
      if (i % 11 == 0) { /* the same segment again, reversed */
        sg[ns].a = ids[b];
        sg[ns].b = ids[a];
        CHECK_EQ(astar__cdt_insert_segment(c, sg[ns].a, sg[ns].b), ASTAR_OK);
        ns++;
      }
    }
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(check_constraints_loose(c, sg, ns, 1e-9), 0);
    /* crossings were split (new vertices) */
    CHECKF(astar__cdt_vertex_count(c) > (size_t)n + 3 + 50, "%zu vertices",
           astar__cdt_vertex_count(c));
    astar__cdt_free(c);
  }
}

/* ---- main ------------------------------------------------------------------ */

int main(void) {
  RUN(test_oracle_sanity);
  RUN(test_orient_random);
  RUN(test_orient_near_line);
  RUN(test_incircle_cocircular);
  RUN(test_incircle_random);
  RUN(test_extreme_magnitudes);
  printf("%ld predicate checks\n", pred_checks);
  RUN(test_cdt_random_points);
  RUN(test_cdt_degenerate_points);
  RUN(test_cdt_grid_constraints);
  RUN(test_cdt_random_constraints);
  return check_summary();
}
