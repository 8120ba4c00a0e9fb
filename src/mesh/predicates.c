/*
** mesh/predicates.c -- exact orientation and in-circle tests on doubles
** (mesh/mesh.h), after the ideas of Shewchuk, "Adaptive Precision
** Floating-Point Arithmetic and Fast Robust Geometric Predicates" (1997);
** our own code.
**
** Three stages, each taken only when the one before cannot decide:
**  1. Filter: the determinant in plain doubles with a forward error bound
**     (the paper's bound: a constant times the permanent). Almost every
**     call ends here.
**  2. Exact differences: when the coordinate differences are exact doubles
**     (always for nearby points and for small integers, the common case of
**     degenerate input), the determinant of the differences is evaluated
**     exactly as a floating-point expansion: a sum of non-overlapping
**     doubles built with error-free transformations (two_sum,
**     two_product). Its sign is the sign of its largest component.
**  3. Big integers: otherwise every coordinate is an integer multiple of
**     the smallest quantum 2^q among them; the determinant of those
**     integers is computed with fixed-size big integers. Exact for any
**     finite doubles (the range of double exponents bounds the size), no
**     allocation.
**
** Stages 1 and 2 are trusted only inside a window where no intermediate
** can overflow or lose bits to underflow: every coordinate difference is
** 0 or has magnitude in [2^-200, 2^200]. Then a difference is a multiple
** of 2^-252, a product of four is a multiple of 2^-1008 (a normal double's
** quantum suffices: error terms are representable) and below 2^810.
** Outside it stage 3 answers directly.
**
** Needs IEEE double with round-to-nearest and no excess precision
** (core/internal.h) and no contraction of a*b+c into fma (the build passes
** -ffp-contract=off): the error-free transformations depend on every
** operation rounding once, to double. No global state.
*/
#include "mesh/mesh.h"

#include <math.h>
#include <string.h>

#define EPS 0x1p-53 /* half an ulp of 1: the unit roundoff */
/* Filter bounds (the paper's, for round-to-nearest). */
#define ORIENT_BOUND ((3.0 + 16.0 * EPS) * EPS)
#define INCIRCLE_BOUND ((10.0 + 96.0 * EPS) * EPS)
#define WIN_LO 0x1p-200
#define WIN_HI 0x1p200

static inline bool in_window(double d) {
  double a = fabs(d);
  return a == 0.0 || (a >= WIN_LO && a <= WIN_HI);
}

/* ---- error-free transformations ---------------------------------------- */

/* a + b == *s + *e exactly, *s the rounded sum (any magnitudes). */
static inline void two_sum(double a, double b, double *s, double *e) {
  double x = a + b;
  double bv = x - a;
  double av = x - bv;
  *s = x;
  *e = (a - av) + (b - bv);
}

/* a - b == *s + *e exactly. */
static inline void two_diff(double a, double b, double *s, double *e) {
  double x = a - b;
  double bv = a - x;
  double av = x + bv;
  *s = x;
  *e = (a - av) + (bv - b);
}

/* a == *hi + *lo with both halves of at most 26 significant bits, so their
** products are exact (Dekker / Veltkamp). */
static inline void split(double a, double *hi, double *lo) {
  double c = 134217729.0 * a; /* 2^27 + 1 */
  double big = c - a;
  *hi = c - big;
  *lo = a - *hi;
}

/* a * b == *p + *e exactly (no underflow: guaranteed by the window). */
static inline void two_product(double a, double b, double *p, double *e) {
  double x = a * b;
  double ah, al, bh, bl;
  split(a, &ah, &al);
  split(b, &bh, &bl);
  double r1 = x - ah * bh;
  double r2 = r1 - al * bh;
  double r3 = r2 - ah * bl;
  *p = x;
  *e = al * bl - r3;
}

/* ---- expansions ------------------------------------------------------------
** An expansion is an array of doubles, increasing in magnitude, non-
** overlapping, zeros removed; its value is their exact sum and its sign
** the sign of its last (largest) component. Empty means zero. */

/* h = e + f (lengths m, n; h has room for m + n). Merge by magnitude, then
** carry one running sum through two_sum, emitting each exact error. */
static int exp_sum(const double *e, int m, const double *f, int n, double *h) {
  if (m == 0) {
    memcpy(h, f, (size_t)n * sizeof *h);
    return n;
  }
  if (n == 0) {
    memcpy(h, e, (size_t)m * sizeof *h);
    return m;
  }
  int i = 0, j = 0, k = 0;
  double q, next, err;
  q = (fabs(e[0]) < fabs(f[0])) ? e[i++] : f[j++];
  while (i < m || j < n) {
    if (j >= n || (i < m && fabs(e[i]) < fabs(f[j])))
      next = e[i++];
    else
      next = f[j++];
    two_sum(q, next, &q, &err);
    if (err != 0.0) h[k++] = err;
  }
  if (q != 0.0) h[k++] = q;
  return k;
}

/* h = e * b (h has room for 2m). */
static int exp_scale(const double *e, int m, double b, double *h) {
  int k = 0;
  if (m == 0 || b == 0.0) return 0;
  double q, err, p, pe, s;
  two_product(e[0], b, &q, &err);
  if (err != 0.0) h[k++] = err;
  for (int i = 1; i < m; i++) {
    two_product(e[i], b, &p, &pe);
    two_sum(q, pe, &s, &err);
    if (err != 0.0) h[k++] = err;
    two_sum(p, s, &q, &err);
    if (err != 0.0) h[k++] = err;
  }
  if (q != 0.0) h[k++] = q;
  return k;
}

static inline int exp_sign(const double *e, int m) {
  return m == 0 ? 0 : (e[m - 1] > 0.0 ? 1 : -1);
}

/* h = a * b - c * d for doubles (4 components at most). */
static int exp_cross(double a, double b, double c, double d, double *h) {
  double x[2], y[2];
  int nx = 0, ny = 0;
  double p, e;
  two_product(a, b, &p, &e);
  if (e != 0.0) x[nx++] = e;
  if (p != 0.0) x[nx++] = p;
  two_product(c, d, &p, &e);
  if (e != 0.0) y[ny++] = -e;
  if (p != 0.0) y[ny++] = -p;
  return exp_sum(x, nx, y, ny, h);
}

/* h = e * f, e of length <= 4, f of length <= 4: h has room for 32. */
static int exp_mul4(const double *e, int m, const double *f, int n, double *h) {
  double t[8], acc[2][32];
  int len = 0, cur = 0;
  for (int j = 0; j < n; j++) {
    int tl = exp_scale(e, m, f[j], t);
    len = exp_sum(acc[cur], len, t, tl, acc[cur ^ 1]);
    cur ^= 1;
  }
  memcpy(h, acc[cur], (size_t)len * sizeof *h);
  return len;
}

/* ---- big integers ----------------------------------------------------------
** Sign and magnitude, 32-bit limbs, least significant first. A coordinate
** has at most 2098 bits at the common quantum (exponents 971 down to
** -1074, 53-bit significands), a difference 2099, the in-circle
** determinant (degree 4, a sum of three terms) at most 8400: 263 limbs. */
#define BIG_LIMBS 264

typedef struct big {
  int sign; /* -1, 0, 1 */
  int n;    /* limbs in use; the top one non-zero */
  uint32_t d[BIG_LIMBS];
} big;

static int mag_cmp(const big *a, const big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}

/* r = |a| + |b| (r may alias either). */
static void mag_add(const big *a, const big *b, big *r) {
  int n = a->n > b->n ? a->n : b->n;
  uint64_t carry = 0;
  for (int i = 0; i < n; i++) {
    uint64_t s = carry;
    if (i < a->n) s += a->d[i];
    if (i < b->n) s += b->d[i];
    r->d[i] = (uint32_t)s;
    carry = s >> 32;
  }
  if (carry && n < BIG_LIMBS) r->d[n++] = (uint32_t)carry;
  r->n = n;
}

/* r = |a| - |b|, |a| >= |b| (r may alias either). */
static void mag_sub(const big *a, const big *b, big *r) {
  int64_t borrow = 0;
  int n = a->n;
  for (int i = 0; i < n; i++) {
    int64_t s = (int64_t)a->d[i] - borrow - (i < b->n ? (int64_t)b->d[i] : 0);
    borrow = s < 0;
    r->d[i] = (uint32_t)(s + (borrow << 32));
  }
  while (n > 0 && r->d[n - 1] == 0) n--;
  r->n = n;
}

/* r = a + sb * b, sb = +1 or -1 (r may alias a or b). */
static void big_addsub(const big *a, const big *b, int sb, big *r) {
  int bs = b->sign * sb;
  if (b->sign == 0) {
    if (r != a) *r = *a;
    return;
  }
  if (a->sign == 0) {
    if (r != b) *r = *b;
    r->sign = bs;
    return;
  }
  if (a->sign == bs) {
    int s = a->sign;
    mag_add(a, b, r);
    r->sign = s;
    return;
  }
  int c = mag_cmp(a, b);
  if (c == 0) {
    r->n = 0;
    r->sign = 0;
  } else if (c > 0) {
    int s = a->sign;
    mag_sub(a, b, r);
    r->sign = s;
  } else {
    mag_sub(b, a, r);
    r->sign = bs;
  }
}

/* r = a * b (r distinct from a and b; the sizes fit by the bound above). */
static void big_mul(const big *a, const big *b, big *r) {
  if (a->sign == 0 || b->sign == 0) {
    r->sign = 0;
    r->n = 0;
    return;
  }
  int n = a->n + b->n;
  memset(r->d, 0, (size_t)n * sizeof r->d[0]);
  for (int i = 0; i < a->n; i++) {
    uint64_t carry = 0;
    for (int j = 0; j < b->n; j++) {
      uint64_t t = (uint64_t)a->d[i] * b->d[j] + r->d[i + j] + carry;
      r->d[i + j] = (uint32_t)t;
      carry = t >> 32;
    }
    r->d[i + b->n] = (uint32_t)carry;
  }
  while (n > 0 && r->d[n - 1] == 0) n--;
  r->n = n;
  r->sign = a->sign * b->sign;
}

/* x = m * 2^e with m an integer of at most 53 bits: m and e. */
static void decompose(double x, int64_t *m, int *e) {
  int ex;
  double f = frexp(x, &ex); /* x = f * 2^ex, 0.5 <= |f| < 1 */
  *m = (int64_t)ldexp(f, 53);
  *e = ex - 53;
}

/* The smallest quantum (exponent of the lowest set bit) among xs. */
static int min_quantum(const double *xs, int n) {
  int q = 1 << 20;
  for (int i = 0; i < n; i++) {
    if (xs[i] == 0.0) continue;
    int64_t m;
    int e;
    decompose(xs[i], &m, &e);
    uint64_t u = (uint64_t)(m < 0 ? -m : m);
    while (!(u & 1u)) {
      u >>= 1;
      e++;
    }
    if (e < q) q = e;
  }
  return q;
}

/* r = x / 2^q, an integer as x is a multiple of 2^q. */
static void big_from(double x, int q, big *r) {
  r->n = 0;
  r->sign = 0;
  if (x == 0.0) return;
  int64_t m;
  int e;
  decompose(x, &m, &e);
  r->sign = m < 0 ? -1 : 1;
  uint64_t u = (uint64_t)(m < 0 ? -m : m);
  int sh = e - q;
  while (sh < 0) { /* trailing zeros below the quantum */
    u >>= 1;
    sh++;
  }
  int limb = sh / 32, bit = sh % 32;
  memset(r->d, 0, (size_t)(limb + 3) * sizeof r->d[0]);
  /* u < 2^53 shifted by < 32 bits spans at most three limbs. */
  uint64_t lo = u << bit;                  /* bits 0..63 of u << bit */
  uint64_t hi = bit ? u >> (64 - bit) : 0; /* the rest */
  r->d[limb] = (uint32_t)lo;
  r->d[limb + 1] = (uint32_t)(lo >> 32);
  r->d[limb + 2] = (uint32_t)hi;
  int n = limb + 3;
  while (n > 0 && r->d[n - 1] == 0) n--;
  r->n = n;
}

static bool all_finite(const double *xs, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(xs[i])) return false;
  return true;
}

static int orient_big(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  const double xs[6] = {a.x, a.y, b.x, b.y, c.x, c.y};
  if (!all_finite(xs, 6)) return 0;
  int q = min_quantum(xs, 6);
  big v[6], acx, acy, bcx, bcy, l, r;
  for (int i = 0; i < 6; i++) big_from(xs[i], q, &v[i]);
  big_addsub(&v[0], &v[4], -1, &acx);
  big_addsub(&v[1], &v[5], -1, &acy);
  big_addsub(&v[2], &v[4], -1, &bcx);
  big_addsub(&v[3], &v[5], -1, &bcy);
  big_mul(&acx, &bcy, &l);
  big_mul(&acy, &bcx, &r);
  big_addsub(&l, &r, -1, &l);
  return l.sign;
}

static int incircle_big(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d) {
  const double xs[8] = {a.x, a.y, b.x, b.y, c.x, c.y, d.x, d.y};
  if (!all_finite(xs, 8)) return 0;
  int q = min_quantum(xs, 8);
  /* Differences to d: dx[k], dy[k] for k = a, b, c. */
  big dx[3], dy[3], t1, t2, lift, det, prod, acc;
  big_from(d.x, q, &t1);
  big_from(d.y, q, &t2);
  for (size_t k = 0; k < 3; k++) {
    big_from(xs[2 * k], q, &dx[k]);
    big_from(xs[2 * k + 1], q, &dy[k]);
    big_addsub(&dx[k], &t1, -1, &dx[k]);
    big_addsub(&dy[k], &t2, -1, &dy[k]);
  }
  acc.sign = 0;
  acc.n = 0;
  for (int k = 0; k < 3; k++) {
    int i = (k + 1) % 3, j = (k + 2) % 3;
    /* lift_k * (dx_i * dy_j - dy_i * dx_j) */
    big_mul(&dx[k], &dx[k], &t1);
    big_mul(&dy[k], &dy[k], &t2);
    big_addsub(&t1, &t2, 1, &lift);
    big_mul(&dx[i], &dy[j], &t1);
    big_mul(&dy[i], &dx[j], &t2);
    big_addsub(&t1, &t2, -1, &det);
    big_mul(&lift, &det, &prod);
    big_addsub(&acc, &prod, 1, &acc);
  }
  return acc.sign;
}

/* ---- the predicates ------------------------------------------------------- */

int astar__orient2d(astar_vec2 a, astar_vec2 b, astar_vec2 c) {
  double acx = a.x - c.x, bcx = b.x - c.x, acy = a.y - c.y, bcy = b.y - c.y;
  if (!(in_window(acx) && in_window(bcx) && in_window(acy) && in_window(bcy)))
    return orient_big(a, b, c);
  double l = acx * bcy, r = acy * bcx;
  double det = l - r;
  double bound = ORIENT_BOUND * (fabs(l) + fabs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  /* Exact differences? (their rounding errors all zero) */
  double s, e0, e1, e2, e3;
  two_diff(a.x, c.x, &s, &e0);
  two_diff(b.x, c.x, &s, &e1);
  two_diff(a.y, c.y, &s, &e2);
  two_diff(b.y, c.y, &s, &e3);
  if (e0 != 0.0 || e1 != 0.0 || e2 != 0.0 || e3 != 0.0) return orient_big(a, b, c);
  double h[4];
  int n = exp_cross(acx, bcy, acy, bcx, h);
  return exp_sign(h, n);
}

int astar__incircle(astar_vec2 a, astar_vec2 b, astar_vec2 c, astar_vec2 d) {
  double adx = a.x - d.x, ady = a.y - d.y;
  double bdx = b.x - d.x, bdy = b.y - d.y;
  double cdx = c.x - d.x, cdy = c.y - d.y;
  if (!(in_window(adx) && in_window(ady) && in_window(bdx) && in_window(bdy) && in_window(cdx) &&
        in_window(cdy)))
    return incircle_big(a, b, c, d);
  double bc1 = bdx * cdy, bc2 = cdx * bdy;
  double ca1 = cdx * ady, ca2 = adx * cdy;
  double ab1 = adx * bdy, ab2 = bdx * ady;
  double alift = adx * adx + ady * ady;
  double blift = bdx * bdx + bdy * bdy;
  double clift = cdx * cdx + cdy * cdy;
  double det = alift * (bc1 - bc2) + blift * (ca1 - ca2) + clift * (ab1 - ab2);
  double perm = (fabs(bc1) + fabs(bc2)) * alift + (fabs(ca1) + fabs(ca2)) * blift +
                (fabs(ab1) + fabs(ab2)) * clift;
  double bound = INCIRCLE_BOUND * perm;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  double s, e[6];
  two_diff(a.x, d.x, &s, &e[0]);
  two_diff(a.y, d.y, &s, &e[1]);
  two_diff(b.x, d.x, &s, &e[2]);
  two_diff(b.y, d.y, &s, &e[3]);
  two_diff(c.x, d.x, &s, &e[4]);
  two_diff(c.y, d.y, &s, &e[5]);
  for (int i = 0; i < 6; i++)
    if (e[i] != 0.0) return incircle_big(a, b, c, d);
  /* Exact differences: lift_k * cross_k for k = a, b, c, summed. */
  const double dx[3] = {adx, bdx, cdx}, dy[3] = {ady, bdy, cdy};
  double acc[2][96];
  int len = 0, cur = 0;
  for (int k = 0; k < 3; k++) {
    int i = (k + 1) % 3, j = (k + 2) % 3;
    double lift[4], cross[4], term[32];
    int ln = exp_cross(dx[k], dx[k], -dy[k], dy[k], lift);
    int cn = exp_cross(dx[i], dy[j], dy[i], dx[j], cross);
    int tn = exp_mul4(lift, ln, cross, cn, term);
    len = exp_sum(acc[cur], len, term, tn, acc[cur ^ 1]);
    cur ^= 1;
  }
  return exp_sign(acc[cur], len);
}
