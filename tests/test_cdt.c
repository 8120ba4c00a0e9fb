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

/* Point i of an n-wide grid of spacing h, row by row. */
static astar_vec2 gridpt(int i, int n, double h) {
  int x = i % n, y = i / n;
  return v2(x * h, y * h);
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
  for (int i = 0; i < 12000; i++) {
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
  for (int i = 0; i < 12000; i++) {
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
  CHECKF(zeros > 40 && nonzero > 1000, "zeros %d nonzero %d", zeros, nonzero);
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
  for (int i = 0; i < 4000; i++) {
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
  CHECKF(zeros > 600, "zeros %d", zeros);
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
  for (int i = 0; i < 5000; i++) {
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
      if (k && rng_range(&r, 0, 3) == 0) q[k].x = q[k - 1].x;
      if (k && rng_range(&r, 0, 3) == 0) q[k].y = ulps(q[k - 1].y, rng_range(&r, -1, 1));
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
    CHECK_EQ(astar__cdt_insert_point(c, v2(i, i), &first[i]), ASTAR_OK);
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
    CHECK_EQ(astar__cdt_insert_point(c, gridpt(order[i], 41, 2.5), &id), ASTAR_OK);
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
static size_t grid_segments(rng *r, astar__cdt *c, int n, const int32_t *gid, seg *sg, size_t ns,
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
      CHECK_EQ(astar__cdt_insert_point(c, gridpt(i, n, 1.0), &gid[i]), ASTAR_OK);
    }
    if (round >= 2) /* the rest, before the segments that need them */
      for (int i = 0; i < n * n; i++)
        CHECK_EQ(astar__cdt_insert_point(c, gridpt(i, n, 1.0), &gid[i]), ASTAR_OK);
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

/* Long chords between points on the border of a box: every pair of chords
** may cross, so most crossings are split on edges that are themselves
** pieces between earlier rounded crossings -- where a rounded point off
** the line can leave the edges to it non-Delaunay. */
static void test_cdt_chords(void) {
  rng r;
  rng_seed(&r, 30);
  for (int round = 0; round < 8; round++) {
    astar__cdt *c = new_cdt(0, 64, NULL);
    int32_t ids[120];
    for (int i = 0; i < 120; i++) {
      double t = rnd_in(&r, 0, 64);
      astar_vec2 p = i % 4 == 0   ? v2(t, 0)
                     : i % 4 == 1 ? v2(64, t)
                     : i % 4 == 2 ? v2(t, 64)
                                  : v2(0, t);
      if (round & 1) p = v2(floor(p.x), floor(p.y)); /* integers: exact crossings more often */
      CHECK_EQ(astar__cdt_insert_point(c, p, &ids[i]), ASTAR_OK);
    }
    seg sg[70];
    for (int i = 0; i < 70; i++) {
      sg[i].a = ids[rng_range(&r, 0, 119)];
      sg[i].b = ids[rng_range(&r, 0, 119)];
      CHECK_EQ(astar__cdt_insert_segment(c, sg[i].a, sg[i].b), ASTAR_OK);
    }
    CHECK(astar__cdt_vertex_count(c) > 500);
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(check_constraints_loose(c, sg, 70, 1e-9), 0);
    astar__cdt_free(c);
  }
}

/* ---- removal ------------------------------------------------------------------ */

typedef struct edge {
  int32_t a, b;
  int c;
} edge;

static int edge_cmp(const void *x, const void *y) {
  const edge *e = x, *f = y;
  if (e->a != f->a) return e->a < f->a ? -1 : 1;
  return (e->b > f->b) - (e->b < f->b);
}

/* The edges (a < b) with their counts, sorted; *n of them. */
static edge *edges_of(astar__cdt *c, size_t *n) {
  size_t nt = astar__cdt_tri_slots(c), k = 0;
  astar__cdt_tri *T = astar__cdt_tris(c);
  edge *e = malloc(3 * nt * sizeof *e);
  for (size_t t = 0; t < nt; t++)
    for (int j = 0; j < 3; j++) {
      int32_t a = T[t].v[(j + 1) % 3], b = T[t].v[(j + 2) % 3];
      if (T[t].v[0] < 0 || a > b) continue;
      e[k++] = (edge){a, b, T[t].c[j]};
    }
  qsort(e, k, sizeof *e, edge_cmp);
  *n = k;
  return e;
}

/* Is edge a-b of c flippable at a cocircular tie (in-circle exactly 0)? */
static int tie_edge(astar__cdt *c, int32_t a, int32_t b) {
  size_t nt = astar__cdt_tri_slots(c);
  astar__cdt_tri *T = astar__cdt_tris(c);
  for (size_t t = 0; t < nt; t++)
    for (int k = 0; k < 3; k++) {
      if (T[t].v[(k + 1) % 3] != a || T[t].v[(k + 2) % 3] != b) continue;
      int32_t u = T[t].n[k];
      if (u < 0 || T[t].c[k]) return 0;
      int j = opp_in(T, u, (int32_t)t);
      return astar__incircle(astar__cdt_vertex(c, T[t].v[0]), astar__cdt_vertex(c, T[t].v[1]),
                             astar__cdt_vertex(c, T[t].v[2]), astar__cdt_vertex(c, T[u].v[j])) == 0;
    }
  return 0;
}

/* c equals a triangulation built afresh from its vertices (same order,
** hence the same ids) and `sg`: the same constrained edges and counts, and
** any other difference a cocircular tie (none allowed when !ties). */
static int same_as_fresh(astar__cdt *c, double lo, double hi, const seg *sg, size_t ns, int ties) {
  astar__cdt *f = new_cdt(lo, hi, NULL);
  size_t nv = astar__cdt_vertex_count(c);
  for (size_t v = 3; v < nv; v++) {
    int32_t id;
    CHECK_EQ(astar__cdt_insert_point(f, astar__cdt_vertex(c, (int32_t)v), &id), ASTAR_OK);
    CHECK_EQ(id, (int32_t)v);
  }
  for (size_t i = 0; i < ns; i++)
    CHECK_EQ(astar__cdt_insert_segment(f, sg[i].a, sg[i].b), ASTAR_OK);
  CHECK_EQ(astar__cdt_vertex_count(f), nv); /* no new crossings */
  size_t na, nb;
  edge *ea = edges_of(c, &na), *eb = edges_of(f, &nb);
  int bad = 0;
  size_t i = 0, j = 0;
  while (i < na || j < nb) {
    int d = i >= na ? 1 : j >= nb ? -1 : edge_cmp(&ea[i], &eb[j]);
    if (d == 0) {
      if (ea[i].c != eb[j].c) {
        FAILF("edge %d-%d: count %d, fresh %d", ea[i].a, ea[i].b, ea[i].c, eb[j].c);
        bad++;
      }
      i++, j++;
    } else if (d < 0) {
      if (!ties || !tie_edge(c, ea[i].a, ea[i].b)) {
        FAILF("edge %d-%d not in the fresh triangulation", ea[i].a, ea[i].b);
        bad++;
      }
      i++;
    } else {
      if (!ties || !tie_edge(f, eb[j].a, eb[j].b)) {
        FAILF("fresh edge %d-%d missing", eb[j].a, eb[j].b);
        bad++;
      }
      j++;
    }
  }
  free(ea);
  free(eb);
  astar__cdt_free(f);
  return bad;
}

/* Do open segments p-q and r-s cross or touch (exact)? */
static int seg_meet(astar_vec2 p, astar_vec2 q, astar_vec2 r, astar_vec2 s) {
  int o1 = astar__orient2d(p, q, r), o2 = astar__orient2d(p, q, s);
  int o3 = astar__orient2d(r, s, p), o4 = astar__orient2d(r, s, q);
  if (o1 * o2 < 0 && o3 * o4 < 0) return 1;
  return (o1 == 0 && on_segment(p, q, r)) || (o2 == 0 && on_segment(p, q, s)) ||
         (o3 == 0 && on_segment(r, s, p)) || (o4 == 0 && on_segment(r, s, q));
}

static void test_cdt_remove_random(void) {
  rng r;
  rng_seed(&r, 25);
  for (int round = 0; round < 4; round++) {
    astar__cdt *c = new_cdt(0, 100, NULL);
    int n = 400;
    int32_t ids[400];
    for (int i = 0; i < n; i++)
      CHECK_EQ(astar__cdt_insert_point(c, v2(rnd_in(&r, 0, 100), rnd_in(&r, 0, 100)), &ids[i]),
               ASTAR_OK);
    /* non-crossing segments (sharing end points allowed), some twice */
    seg sg[200];
    size_t ns = 0;
    for (int tries = 0; tries < 3000 && ns < 150; tries++) {
      int a = rng_range(&r, 0, n - 1), b = rng_range(&r, 0, n - 1);
      if (a == b) continue;
      astar_vec2 A = astar__cdt_vertex(c, ids[a]), B = astar__cdt_vertex(c, ids[b]);
      if (hypot(B.x - A.x, B.y - A.y) > 30) continue;
      int ok = 1;
      for (size_t i = 0; i < ns && ok; i++) {
        astar_vec2 P = astar__cdt_vertex(c, sg[i].a), Q = astar__cdt_vertex(c, sg[i].b);
        int shared =
            sg[i].a == ids[a] || sg[i].a == ids[b] || sg[i].b == ids[a] || sg[i].b == ids[b];
        if (shared) {
          /* only the common end point: not collinear overlap */
          int32_t o = (sg[i].a == ids[a] || sg[i].a == ids[b]) ? sg[i].b : sg[i].a;
          int32_t m = (sg[i].a == ids[a] || sg[i].b == ids[a]) ? ids[b] : ids[a];
          if (o == m) continue; /* the same segment: allowed (count 2) */
          (void)o;
          continue;
        }
        if (seg_meet(A, B, P, Q)) ok = 0;
      }
      /* no other vertex on it */
      for (int v = 0; v < n && ok; v++)
        if (v != a && v != b && on_segment(A, B, astar__cdt_vertex(c, ids[v]))) ok = 0;
      if (!ok) continue;
      sg[ns].a = ids[a];
      sg[ns].b = ids[b];
      CHECK_EQ(astar__cdt_insert_segment(c, sg[ns].a, sg[ns].b), ASTAR_OK);
      ns++;
      if (tries % 9 == 0 && ns < 200) {
        sg[ns] = sg[ns - 1];
        CHECK_EQ(astar__cdt_insert_segment(c, sg[ns].b, sg[ns].a), ASTAR_OK);
        ns++;
      }
    }
    CHECK(ns > 50);
    CHECK_EQ(astar__cdt_vertex_count(c), (size_t)n + 3);
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(check_constraints_exact(c, sg, ns), 0);
    CHECK_EQ(same_as_fresh(c, 0, 100, sg, ns, 0), 0);
    /* remove a random half (either direction) */
    for (size_t i = 0; i < ns;) {
      if (rng_range(&r, 0, 1)) {
        int rev = rng_range(&r, 0, 1);
        CHECK_EQ(astar__cdt_remove_segment(c, rev ? sg[i].b : sg[i].a, rev ? sg[i].a : sg[i].b),
                 ASTAR_OK);
        sg[i] = sg[--ns];
      } else {
        i++;
      }
    }
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(check_constraints_exact(c, sg, ns), 0);
    CHECK_EQ(same_as_fresh(c, 0, 100, sg, ns, 0), 0);
    /* a segment not there */
    CHECK_EQ(astar__cdt_remove_segment(c, ids[0], ids[0]), ASTAR_INVALID_ARGUMENT);
    CHECK_EQ(astar__cdt_remove_segment(c, -1, ids[0]), ASTAR_INVALID_ARGUMENT);
    /* remove the rest: back to the Delaunay triangulation */
    while (ns) {
      ns--;
      CHECK_EQ(astar__cdt_remove_segment(c, sg[ns].a, sg[ns].b), ASTAR_OK);
    }
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(same_as_fresh(c, 0, 100, sg, 0, 0), 0);
    astar__cdt_free(c);
  }
}

/* Grid segments with split crossings, removed: cocircular ties allowed. */
static void test_cdt_remove_grid(void) {
  rng r;
  rng_seed(&r, 26);
  for (int round = 0; round < 3; round++) {
    int n = 16;
    astar__cdt *c = new_cdt(0, n, NULL);
    int32_t gid[16 * 16];
    for (int i = 0; i < n * n; i++)
      CHECK_EQ(astar__cdt_insert_point(c, gridpt(i, n, 1.0), &gid[i]), ASTAR_OK);
    seg sg[120];
    size_t ns = grid_segments(&r, c, n, gid, sg, 100, 6);
    CHECK_EQ(check_constraints_exact(c, sg, ns), 0);
    for (size_t i = 0; i < ns;) {
      if (rng_range(&r, 0, 2) == 0) {
        CHECK_EQ(astar__cdt_remove_segment(c, sg[i].a, sg[i].b), ASTAR_OK);
        sg[i] = sg[--ns];
      } else {
        i++;
      }
    }
    CHECK_EQ(check_all(c), 0);
    CHECK_EQ(check_constraints_exact(c, sg, ns), 0);
    CHECK_EQ(same_as_fresh(c, 0, n, sg, ns, 1), 0);
    astar__cdt_free(c);
  }
}

/* ---- touched list, determinism, allocation failures ---------------------------- */

static int tri_same(const astar__cdt_tri *a, const astar__cdt_tri *b) {
  for (int k = 0; k < 3; k++)
    if (a->v[k] != b->v[k] || a->n[k] != b->n[k] || a->c[k] != b->c[k]) return 0;
  return a->mark == b->mark;
}

/* Every slot that changed (or is new) since `old` is listed, once. */
static int check_touched(astar__cdt *c, const astar__cdt_tri *old, size_t old_n) {
  size_t n, nt = astar__cdt_tri_slots(c);
  const int32_t *l = astar__cdt_touched(c, &n);
  char *in = calloc(nt, 1);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (l[i] < 0 || (size_t)l[i] >= nt || in[l[i]]) {
      FAILF("touched list: bad or repeated slot %d", l[i]);
      bad++;
      continue;
    }
    in[l[i]] = 1;
  }
  astar__cdt_tri *T = astar__cdt_tris(c);
  for (size_t t = 0; t < nt; t++) {
    int changed = t >= old_n || !tri_same(&T[t], &old[t]);
    if (changed && !in[t]) {
      FAILF("slot %zu changed, not in the touched list", t);
      bad++;
    }
  }
  free(in);
  return bad;
}

static void test_cdt_touched(void) {
  rng r;
  rng_seed(&r, 27);
  astar__cdt *c = new_cdt(0, 50, NULL);
  int32_t ids[300];
  size_t ig;
  (void)astar__cdt_touched(c, &ig);
  for (int i = 0; i < 300; i++) {
    size_t n0 = astar__cdt_tri_slots(c);
    astar__cdt_tri *old = malloc((n0 + 1) * sizeof *old);
    memcpy(old, astar__cdt_tris(c), n0 * sizeof *old);
    astar_vec2 p = i % 3 ? v2(rnd_in(&r, 0, 50), rnd_in(&r, 0, 50))
                         : v2(rng_range(&r, 0, 50), rng_range(&r, 0, 50));
    CHECK_EQ(astar__cdt_insert_point(c, p, &ids[i]), ASTAR_OK);
    CHECK_EQ(check_touched(c, old, n0), 0);
    free(old);
  }
  seg sg[60];
  for (int i = 0; i < 60; i++) {
    size_t n0 = astar__cdt_tri_slots(c);
    astar__cdt_tri *old = malloc(n0 * sizeof *old);
    memcpy(old, astar__cdt_tris(c), n0 * sizeof *old);
    sg[i].a = ids[rng_range(&r, 0, 299)];
    sg[i].b = ids[rng_range(&r, 0, 299)];
    CHECK_EQ(astar__cdt_insert_segment(c, sg[i].a, sg[i].b), ASTAR_OK);
    CHECK_EQ(check_touched(c, old, n0), 0);
    free(old);
  }
  for (int i = 0; i < 60; i++) {
    size_t n0 = astar__cdt_tri_slots(c);
    astar__cdt_tri *old = malloc(n0 * sizeof *old);
    memcpy(old, astar__cdt_tris(c), n0 * sizeof *old);
    CHECK_EQ(astar__cdt_remove_segment(c, sg[i].a, sg[i].b),
             sg[i].a == sg[i].b ? ASTAR_INVALID_ARGUMENT : ASTAR_OK);
    CHECK_EQ(check_touched(c, old, n0), 0);
    free(old);
  }
  CHECK_EQ(check_all(c), 0);
  astar__cdt_free(c);
}

/* The whole life of a triangulation, going on after a failure (the
** failing allocator refuses one request): every call OK or NO_MEMORY; a
** failed point insertion adds no vertex; a failed segment leaves no count
** behind: once every segment that went in is removed, no edge is
** constrained. Returns the first failing status. */
static astar_status scenario(const astar_allocator *al, int *bad) {
  rng r;
  rng_seed(&r, 28);
  astar__cdt *c = NULL;
  astar_status st = astar__cdt_new(&c, v2(0, 0), v2(40, 40), al), first = ASTAR_OK;
  if (st != ASTAR_OK) return st;
  astar_vec2 p[400];
  int32_t ids[400];
  for (int i = 0; i < 400; i++)
    p[i] = i % 2 ? v2(rnd_in(&r, 0, 40), rnd_in(&r, 0, 40))
                 : v2(rng_range(&r, 0, 40), rng_range(&r, 0, 40));
#define NOTE(call)                                                                                 \
  do {                                                                                             \
    st = (call);                                                                                   \
    if (st != ASTAR_OK && st != ASTAR_NO_MEMORY) {                                                 \
      FAILF("status %d", (int)st);                                                                 \
      ++*bad;                                                                                      \
    }                                                                                              \
    if (first == ASTAR_OK) first = st;                                                             \
  } while (0)
  NOTE(astar__cdt_insert_points(c, p, 200, ids));
  if (st != ASTAR_OK) {
    /* stopped part-way: insert them one by one */
    for (int i = 0; i < 200; i++) NOTE(astar__cdt_insert_point(c, p[i], &ids[i]));
  }
  for (int i = 200; i < 400; i++) {
    size_t nv = astar__cdt_vertex_count(c);
    NOTE(astar__cdt_insert_point(c, p[i], &ids[i]));
    if (st != ASTAR_OK) {
      if (astar__cdt_vertex_count(c) != nv) {
        FAILF("failed insertion added a vertex");
        ++*bad;
      }
      NOTE(astar__cdt_insert_point(c, p[i], &ids[i])); /* again */
    }
  }
  seg sg[80];
  int in[80];
  for (int i = 0; i < 80; i++) {
    sg[i].a = ids[rng_range(&r, 0, 399)];
    sg[i].b = ids[rng_range(&r, 0, 399)];
    NOTE(astar__cdt_insert_segment(c, sg[i].a, sg[i].b));
    in[i] = st == ASTAR_OK && sg[i].a != sg[i].b;
  }
  for (int i = 0; i < 80; i += 2)
    if (in[i]) {
      NOTE(astar__cdt_remove_segment(c, sg[i].a, sg[i].b));
      in[i] = st != ASTAR_OK;
    }
  *bad += check_structure(c);
  if (first == ASTAR_OK) *bad += check_delaunay(c);
  for (int i = 0; i < 80; i++)
    if (in[i]) NOTE(astar__cdt_remove_segment(c, sg[i].a, sg[i].b));
  size_t nt = astar__cdt_tri_slots(c);
  const astar__cdt_tri *T = astar__cdt_tris(c);
  for (size_t t = 0; t < nt; t++)
    for (int k = 0; k < 3; k++)
      if (T[t].c[k]) {
        FAILF("edge %d-%d still constrained", T[t].v[(k + 1) % 3], T[t].v[(k + 2) % 3]);
        ++*bad;
      }
#undef NOTE
  astar__cdt_free(c);
  return first;
}

static void test_cdt_alloc_failures(void) {
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator al = failalloc_allocator(&fa);
  int bad = 0;
  CHECK_EQ(scenario(&al, &bad), ASTAR_OK);
  CHECK_EQ(bad, 0);
  CHECK_EQ(fa.blocks, 0);
  long total = fa.requests, failed = 0;
  CHECK(total > 20);
  for (long k = 1; k <= total; k++) {
    failalloc_init(&fa);
    fa.fail_at = k;
    bad = 0;
    astar_status st = scenario(&al, &bad);
    if (st != ASTAR_OK) failed++;
    CHECKF(st == ASTAR_OK || st == ASTAR_NO_MEMORY, "request %ld: status %d", k, (int)st);
    CHECKF(bad == 0, "request %ld: %d faults after the failure", k, bad);
    CHECKF(fa.blocks == 0 && fa.osize_mismatches == 0, "request %ld: %ld blocks left, %ld osize", k,
           fa.blocks, fa.osize_mismatches);
  }
  CHECKF(failed > total / 2, "%ld of %ld failures reported", failed, total);
}

static void test_cdt_deterministic(void) {
  astar__cdt *c[2];
  for (int k = 0; k < 2; k++) {
    rng r;
    rng_seed(&r, 29);
    c[k] = new_cdt(0, 100, NULL);
    int32_t ids[500];
    for (int i = 0; i < 500; i++)
      CHECK_EQ(astar__cdt_insert_point(c[k], v2(rng_range(&r, 0, 100) * 0.5, rnd_in(&r, 0, 100)),
                                       &ids[i]),
               ASTAR_OK);
    for (int i = 0; i < 100; i++)
      CHECK_EQ(
          astar__cdt_insert_segment(c[k], ids[rng_range(&r, 0, 499)], ids[rng_range(&r, 0, 499)]),
          ASTAR_OK);
  }
  CHECK_EQ(astar__cdt_tri_slots(c[0]), astar__cdt_tri_slots(c[1]));
  for (size_t t = 0; t < astar__cdt_tri_slots(c[0]); t++)
    CHECK(tri_same(&astar__cdt_tris(c[0])[t], &astar__cdt_tris(c[1])[t]));
  CHECK(astar__cdt_memory(c[0]) > 0);
  astar__cdt_free(c[0]);
  astar__cdt_free(c[1]);
}

static void test_cdt_arguments(void) {
  astar__cdt *c = NULL;
  CHECK_EQ(astar__cdt_new(NULL, v2(0, 0), v2(1, 1), NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar__cdt_new(&c, v2(1, 0), v2(0, 1), NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(c == NULL);
  CHECK_EQ(astar__cdt_new(&c, v2(0, 0), v2(INFINITY, 1), NULL), ASTAR_INVALID_ARGUMENT);
  c = new_cdt(0, 10, NULL);
  int32_t a, b;
  CHECK_EQ(astar__cdt_insert_point(c, v2(1, 1), &a), ASTAR_OK);
  CHECK_EQ(astar__cdt_insert_point(c, v2(5, 5), &b), ASTAR_OK);
  CHECK_EQ(astar__cdt_insert_segment(c, a, 0), ASTAR_INVALID_ARGUMENT); /* bounding vertex */
  CHECK_EQ(astar__cdt_insert_segment(c, a, 99), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar__cdt_insert_segment(c, a, a), ASTAR_OK);
  CHECK_EQ(astar__cdt_remove_segment(c, a, b), ASTAR_INVALID_ARGUMENT); /* never inserted */
  CHECK_EQ(astar__cdt_insert_points(c, NULL, 0, NULL), ASTAR_OK);
  CHECK_EQ(astar__cdt_locate(c, v2(NAN, 1)), -1);
  /* a line of points and one segment over them all: it runs through each */
  for (int i = 2; i <= 8; i++) CHECK_EQ(astar__cdt_insert_point(c, v2(i, i), &b), ASTAR_OK);
  seg s1 = {a, b};
  CHECK_EQ(astar__cdt_insert_segment(c, a, b), ASTAR_OK);
  CHECK_EQ(check_constraints_exact(c, &s1, 1), 0);
  CHECK_EQ(check_all(c), 0);
  CHECK_EQ(astar__cdt_remove_segment(c, b, a), ASTAR_OK);
  CHECK_EQ(check_constraints_exact(c, &s1, 0), 0);
  astar__cdt_free(c);
  astar__cdt_free(NULL);
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
  RUN(test_cdt_chords);
  RUN(test_cdt_remove_random);
  RUN(test_cdt_remove_grid);
  RUN(test_cdt_touched);
  RUN(test_cdt_deterministic);
  RUN(test_cdt_arguments);
  RUN(test_cdt_alloc_failures);
  return check_summary();
}
