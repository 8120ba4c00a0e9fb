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

/* ---- main ------------------------------------------------------------------ */

int main(void) {
  RUN(test_oracle_sanity);
  RUN(test_orient_random);
  RUN(test_orient_near_line);
  RUN(test_incircle_cocircular);
  RUN(test_incircle_random);
  RUN(test_extreme_magnitudes);
  printf("%ld predicate checks\n", pred_checks);
  return check_summary();
}
