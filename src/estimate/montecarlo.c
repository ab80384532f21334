/*
 * montecarlo.c (estimate) - the Monte Carlo percentiles of an estimate
 * (issue 45 item 2; docs/energy-model.md "Monte Carlo"): each ranged input
 * of the sensitivity table read as a stated distribution (the table
 * below, with the reason), drawn by the project's own generator
 * (xoshiro256**, seeded by splitmix64) and mapped to the central figures
 * by the product of its one-at-a-time factors (the sensitivity runs: the
 * figure with that input alone at its low and at its high, linear in
 * between); p5, p50, p95 over the draws.  Only IEEE-754 basic operations
 * (exactly rounded), sqrt (exactly rounded too), frexp/ldexp (exact) and
 * the own exp/log below touch a draw, so the same seed gives the same
 * percentiles bit for bit on every libc, in the CLI, Python and the page.
 */
#include "estimate/montecarlo.h"
#include "estimate/sensitivity.h"   /* jci_estimate_arena */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>   /* two lanes of the same IEEE-754 operations (x86-64's baseline) */
#endif

#define MC_BLOCK 256   /* draws per block of the fast path */
/* the stride of the fast path's rows of uniform numbers: a block and a
 * cache line more, so that the rows, written a column (a draw) at a
 * time, do not fall into the same few cache sets */
#define MC_ROW (MC_BLOCK + 8)
_Static_assert(MC_BLOCK % 4 == 0, "the SSE2 loops take whole blocks four (exp) or two draws at a time");

/* ---- the generator -------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void jci_rng_seed(jci_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t jci_rng_next(jci_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double jci_rng_unit(jci_rng *r)
{
    return (double)(jci_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- exp, log and the normal quantile in basic operations ------------------------- */

/* p 2^k, exactly rounded as ldexp rounds it: 2^k is a normal double for
 * k in [-1022, 1023], and one product is exactly rounded (ldexp beyond). */
static double scale2(double p, double k)
{
    if (!(k >= -1022 && k <= 1023)) return ldexp(p, (int)k);
    union { double d; uint64_t u; } two = {.u = (uint64_t)(k + 1023) << 52};
    return p * two.d;
}

/* 1/i! (each literal quotient exactly rounded at compile time); |r| <= 0.35: r^15/15! < 2e-19 */
static const double EXP_INV[15] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
                                   1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600,
                                   1.0 / 6227020800.0, 1.0 / 87178291200.0};
static const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;

double jci_exp(double x)
{
    double k = floor(x * 1.44269504088896338700 + 0.5);
    double r = (x - k * LN2_HI) - k * LN2_LO, p = EXP_INV[14];
    for (int i = 13; i >= 0; i--) p = p * r + EXP_INV[i];
    return scale2(p, k);
}

/* y[e] = scale2(y[e], k[e]) over the block, for whole k[e] in [-1022,
 * 1023] (exp_block's range): 2^k is the double whose exponent field is
 * k + 1023 (the same bits scale2 forms), one exactly rounded product. */
static void scale2_block(double *y, const double *k)
{
    size_t e = 0;
#if defined(__SSE2__)
    /* k + (2^52 + 1023) is exact and holds k + 1023 in its low bits */
    const __m128d bias = _mm_set1_pd(0x1p52 + 1023);
    for (; e + 2 <= MC_BLOCK; e += 2) {
        __m128i bits = _mm_slli_epi64(_mm_castpd_si128(_mm_add_pd(_mm_loadu_pd(k + e), bias)), 52);
        _mm_storeu_pd(y + e, _mm_mul_pd(_mm_loadu_pd(y + e), _mm_castsi128_pd(bits)));
    }
#endif
    for (; e < MC_BLOCK; e++) y[e] = scale2(y[e], k[e]);
}

/* jci_exp of each of x[0..MC_BLOCK-1] into y (the same operations
 * element by element, so the same bits; the polynomial runs over the block
 * at once, its elements independent, not one element's chain at a time:
 * four elements in two SSE2 vectors where the target has them, each lane
 * still rounding each operation as the scalar does). */
static void exp_block(const double *x, double *y)
{
    const size_t n = MC_BLOCK;
    double k[MC_BLOCK];
    for (size_t e = 0; e < n; e++)
        if (!(fabs(x[e]) <= 700)) {   /* beyond the contract (or NaN): as jci_exp does it */
            for (e = 0; e < n; e++) y[e] = jci_exp(x[e]);
            return;
        }
    size_t e = 0;
    const double *c = EXP_INV;
#if defined(__SSE2__)
    /* the loops below, two lanes of two vectors at a time (four
     * independent chains in flight); f - 1 where f > t, f - 0 = f else */
    const __m128d l2e = _mm_set1_pd(1.44269504088896338700), half = _mm_set1_pd(0.5), one = _mm_set1_pd(1),
                  hi = _mm_set1_pd(LN2_HI), lo = _mm_set1_pd(LN2_LO);
    for (; e + 4 <= n; e += 4) {
        __m128d xa = _mm_loadu_pd(x + e), xb = _mm_loadu_pd(x + e + 2);
        __m128d ta = _mm_add_pd(_mm_mul_pd(xa, l2e), half), tb = _mm_add_pd(_mm_mul_pd(xb, l2e), half);
        __m128d fa = _mm_cvtepi32_pd(_mm_cvttpd_epi32(ta)), fb = _mm_cvtepi32_pd(_mm_cvttpd_epi32(tb));
        __m128d ka = _mm_sub_pd(fa, _mm_and_pd(_mm_cmpgt_pd(fa, ta), one));
        __m128d kb = _mm_sub_pd(fb, _mm_and_pd(_mm_cmpgt_pd(fb, tb), one));
        __m128d qa = _mm_sub_pd(_mm_sub_pd(xa, _mm_mul_pd(ka, hi)), _mm_mul_pd(ka, lo));
        __m128d qb = _mm_sub_pd(_mm_sub_pd(xb, _mm_mul_pd(kb, hi)), _mm_mul_pd(kb, lo));
        __m128d pa = _mm_set1_pd(c[14]), pb = pa;
        for (int i = 13; i >= 0; i--) {
            __m128d ci = _mm_set1_pd(c[i]);
            pa = _mm_add_pd(_mm_mul_pd(pa, qa), ci);
            pb = _mm_add_pd(_mm_mul_pd(pb, qb), ci);
        }
        _mm_storeu_pd(k + e, ka), _mm_storeu_pd(k + e + 2, kb);
        _mm_storeu_pd(y + e, pa), _mm_storeu_pd(y + e + 2, pb);
    }
#else
    for (; e < n; e++) {
        /* floor of t (|t| < 1011): the truncation, one less when that rounded up */
        double t = x[e] * 1.44269504088896338700 + 0.5, f = (double)(int32_t)t;
        k[e] = f > t ? f - 1 : f;
        double q = (x[e] - k[e] * LN2_HI) - k[e] * LN2_LO, p = c[14];   /* jci_exp's Horner loop written out */
        p = p * q + c[13], p = p * q + c[12], p = p * q + c[11], p = p * q + c[10], p = p * q + c[9];
        p = p * q + c[8], p = p * q + c[7], p = p * q + c[6], p = p * q + c[5], p = p * q + c[4];
        p = p * q + c[3], p = p * q + c[2], p = p * q + c[1], p = p * q + c[0];
        y[e] = p;
    }
#endif
    scale2_block(y, k);
}

/* log(x) for x > 0: x = m 2^e (frexp, exact), m in [sqrt(1/2), sqrt(2)),
 * log m = 2 atanh((m - 1) / (m + 1)) by its series. */
static double own_log(double x)
{
    int e;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2;
        e--;
    }
    double s = (m - 1) / (m + 1), s2 = s * s, t = s, sum = 0;
    for (int i = 1; i <= 41; i += 2) {   /* s <= 0.172: s^43/43 < 1e-34 */
        sum += t / i;
        t *= s2;
    }
    return 2 * sum + e * 0.69314718055994530942;
}

static const double NQ_A[6] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
static const double NQ_B[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};

static inline double norm_q(double p)
{
    const double *a = NQ_A, *b = NQ_B;
    double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double jci_norm_central_quantile(double p) { return norm_q(p); }

/* ---- the inputs' distributions, as data --------------------------------------------- */

enum { D_UNIFORM, D_TRIANGULAR, D_LOGNORMAL };
static const char *const dist_name[] = {"uniform", "triangular", "log-normal"};

/* The first row whose prefix starts the key decides; the last row is the
 * default.  group: inputs drawn with one uniform number (a shared cause). */
static const struct {
    const char *prefix;
    int dist;
    const char *group, *reason;
} DIST[] = {
    {"grid.ci", D_UNIFORM, NULL,
     "the range is the spread of the region's published datasets (bases and years); none is preferred"},
    {"pue", D_TRIANGULAR, NULL,
     "a published or class default with the span of its peers: bounded, most likely at the central figure"},
    {"kernel_eta_", D_LOGNORMAL, "runtime efficiency fit",
     "a fitted factor whose range is a percentile spread of the calibration rows' ratios (multiplicative "
     "errors): log-normal about the central, the bounds its 5th and 95th percentiles, truncated there; the "
     "efficiencies of one runtime profile come from one fit and move together"},
    {"power_k_", D_LOGNORMAL, "device power fit",
     "a fitted power coefficient (tools/fit_power.py, one fit for both): log-normal about the central, the "
     "bounds its 5th and 95th percentiles, truncated there; the two coefficients move together"},
    {"host.power_w", D_LOGNORMAL, NULL,
     "the host power of the system class: the spread of the measured servers' ratios, log-normal about the "
     "central, the bounds its 5th and 95th percentiles, truncated there"},
    {"", D_TRIANGULAR, NULL,
     "a stated range about a central value without a measured spread: bounded, most likely at the central"},
};

static size_t dist_row(const char *key)
{
    size_t n = sizeof DIST / sizeof DIST[0];
    for (size_t i = 0; i + 1 < n; i++)
        if (!strncmp(key, DIST[i].prefix, strlen(DIST[i].prefix))) return i;
    return n - 1;
}

/* One input as the draws read it: its distribution and range, the
 * log-normal's scale on each side (ln(c / lo), ln(hi / c) over the 95th
 * percentile's z), the input whose uniform number it takes (its group's
 * first; itself when alone) and its factors at the bounds per figure. */
typedef struct mc_in {
    int dist;
    double lo, c, hi, s_lo, s_hi;
    size_t lead;
    double k_lo[3], k_hi[3];   /* the factor's slope below and above the central */
} mc_in;

/* The factor on central figure j of input y at x: 1 at its central,
 * at_low / central at its low, at_high / central at its high, linear in
 * between (every draw lies in the range). */
static double factor(const mc_in *y, int j, double x)
{
    return x < y->c ? 1 + y->k_lo[j] * (y->c - x) : 1 + y->k_hi[j] * (x - y->c);
}

/* The value of input x at uniform number u. */
static double draw(const mc_in *x, double u)
{
    int dist = x->dist;
    double lo = x->lo, c = x->c, hi = x->hi;
    if (dist == D_LOGNORMAL) {
        /* the bounds are the 5th and 95th percentiles: u in [0.05, 0.95] truncates there */
        double z = jci_norm_central_quantile(0.05 + 0.9 * u);
        return c * jci_exp((z < 0 ? x->s_lo : x->s_hi) * z);
    }
    if (dist == D_UNIFORM || !(hi > lo)) return lo + u * (hi - lo);
    double fc = (c - lo) / (hi - lo);   /* triangular(lo, c, hi) by its inverse CDF */
    return u < fc ? lo + sqrt(u * (hi - lo) * (c - lo)) : hi - sqrt((1 - u) * (hi - lo) * (hi - c));
}


/* The k-th smallest of v[lo..hi] (quickselect, median-of-three pivots;
 * v reordered): the exact order statistic, whatever the pivots. */
static double select_k(double *v, size_t lo, size_t hi, size_t k)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        double a = v[lo], b = v[mid], c = v[hi];
        double piv = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < piv) i++;
            while (v[j] > piv) j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return v[k];
    }
    return v[k];
}

/* p5, p50, p95 of v[n] (nearest rank: the ceil(p n)-th smallest; v may
 * be reordered; tmp: 3 n doubles of scratch), each the exact order
 * statistic select_k gives, in about one pass: bounds a_r <= b_r taken
 * from an evenly spaced sample of v around each rank (the sample's
 * order statistics, selected in rising order: each select leaves the
 * sample partitioned at its rank), then one pass counts the values below
 * each a_r and gathers those in [a_r, b_r] into tmp's r-th third; when
 * rank r falls among its gathered ones it is selected there, else (a
 * sample that misled) in all of v. */
static jc_pct pct(double *v, size_t n, double *tmp)
{
    enum { S = 512, MARGIN = 34 };   /* sample size; ranks of slack (~3 sd of a sample rank) */
    size_t k[3] = {(5 * n + 99) / 100 - 1, (50 * n + 99) / 100 - 1, (95 * n + 99) / 100 - 1};
    double q[3], a[3], b[3], smp[S];
    if (n < 8 * S) {
        for (int r = 0; r < 3; r++) q[r] = select_k(v, 0, n - 1, k[r]);
        return (jc_pct){q[0], q[1], q[2]};
    }
    size_t step = n / S, from = 0;
    for (size_t i = 0; i < S; i++) smp[i] = v[i * step];
    for (int r = 0; r < 3; r++) {
        size_t ks = k[r] * S / n;
        size_t ia = ks > MARGIN ? ks - MARGIN : 0, ib = ks + MARGIN < S - 1 ? ks + MARGIN : S - 1;
        ia = ia > from ? ia : from;   /* the windows' sample ranks rise (k rises; duplicates may share bounds) */
        a[r] = select_k(smp, from, S - 1, ia);
        b[r] = select_k(smp, ia, S - 1, ib);
        from = ib;
        if (ia == 0) a[r] = -INFINITY;
        if (ib == S - 1) b[r] = INFINITY;
    }
    double *t0 = tmp, *t1 = tmp + n, *t2 = tmp + 2 * n;
    size_t below[3] = {0, 0, 0}, m[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {   /* no branch on the values (&, not &&): every one is written, m moves when kept */
        double x = v[i];
        below[0] += x < a[0], below[1] += x < a[1], below[2] += x < a[2];
        t0[m[0]] = x, t1[m[1]] = x, t2[m[2]] = x;
        m[0] += (x >= a[0]) & (x <= b[0]), m[1] += (x >= a[1]) & (x <= b[1]), m[2] += (x >= a[2]) & (x <= b[2]);
    }
    for (int r = 0; r < 3; r++) {
        double *t = tmp + r * n;
        q[r] = k[r] >= below[r] && k[r] < below[r] + m[r] ? select_k(t, 0, m[r] - 1, k[r] - below[r])
                                                           : select_k(v, 0, n - 1, k[r]);
    }
    return (jc_pct){q[0], q[1], q[2]};
}

/* The inputs of e's sensitivity table as the draws read them into x[m]
 * (and their distributions into in[m] when in is not NULL). */
static void inputs_of(const jc_estimate *e, mc_in *x, jc_mc_input *in)
{
    double c0[3] = {e->co2_kg.central, e->energy_facility_kwh.central, e->wall_hours.central};
    for (size_t i = 0; i < e->n_sensitivity; i++) {
        const jc_sensitivity *s = &e->sensitivity[i];
        size_t row = dist_row(s->key);
        if (in) in[i] = (jc_mc_input){s->key, dist_name[DIST[row].dist], DIST[row].reason, DIST[row].group};
        mc_in *y = &x[i];
        *y = (mc_in){.dist = DIST[row].dist, .lo = s->low, .c = s->central, .hi = s->high, .lead = i};
        if (y->dist == D_LOGNORMAL && !(y->lo > 0 && y->c > 0)) y->dist = D_TRIANGULAR;   /* no log of 0 */
        if (y->dist == D_LOGNORMAL) {
            y->s_lo = own_log(y->c / y->lo) / 1.6448536269514722;
            y->s_hi = own_log(y->hi / y->c) / 1.6448536269514722;
        }
        const char *g = DIST[row].group, *gq;
        for (size_t q = 0; q < i && g; q++)
            if ((gq = DIST[dist_row(e->sensitivity[q].key)].group) && !strcmp(gq, g)) { y->lead = q; break; }
        double lo3[3] = {s->co2_low, s->kwh_low, s->hours_low}, hi3[3] = {s->co2_high, s->kwh_high, s->hours_high};
        for (int j = 0; j < 3; j++) {
            double r_lo = c0[j] > 0 ? lo3[j] / c0[j] : 1, r_hi = c0[j] > 0 ? hi3[j] / c0[j] : 1;
            y->k_lo[j] = y->c > y->lo ? (r_lo - 1) / (y->c - y->lo) : 0;
            y->k_hi[j] = y->hi > y->c ? (r_hi - 1) / (y->hi - y->c) : 0;
        }
    }
}

/* The reference path, as the model reads: draw after draw, each input's
 * uniform number, its value and its factors, the product times the
 * central figure; v[j n + k] is figure j of draw k. */
static void draws_reference(const mc_in *x, size_t m, size_t n, uint64_t seed, const double c0[3], double *v,
                            double *u)
{
    jci_rng r;
    jci_rng_seed(&r, seed);
    for (size_t k = 0; k < n; k++) {
        double f[3] = {1, 1, 1};
        for (size_t i = 0; i < m; i++) {   /* a grouped input takes its group's first member's number */
            const mc_in *y = &x[i];
            double w = jci_rng_unit(&r);   /* drawn for every input: the stream does not depend on the groups */
            u[i] = y->lead == i ? w : u[y->lead];
            double val = draw(y, u[i]);
            for (int j = 0; j < 3; j++) f[j] *= factor(y, j, val);
        }
        for (int j = 0; j < 3; j++) v[j * n + k] = c0[j] * f[j];
    }
}

/* Does input y move figure j at all?  (A factor of exactly 1 leaves the
 * product's bits as they are: such a factor is skipped.) */
static int moves(const mc_in *y, int j) { return y->k_lo[j] != 0 || y->k_hi[j] != 0; }

/* z[e] = the standard normal quantile a log-normal input reads at u[e]
 * (draw()'s, the same for every input that shares u: one group). */
static void quantile_block(const double *u, double *z)
{
    for (size_t e = 0; e < MC_BLOCK; e++) z[e] = norm_q(0.05 + 0.9 * u[e]);
}

/* The values of the log-normal input y at the quantiles z[0..B-1] of its
 * uniform numbers into val (draw()'s, the exp over the block at once). */
static void lognormal_block(const mc_in *y, const double *z, double *val)
{
    double t[MC_BLOCK], s_lo = y->s_lo, s_hi = y->s_hi, c = y->c;
    for (size_t e = 0; e < MC_BLOCK; e++)
        t[e] = (z[e] < 0 ? s_lo : s_hi) * z[e];   /* a select, not a branch: the sign is a coin toss */
    exp_block(t, val);
    for (size_t e = 0; e < MC_BLOCK; e++) val[e] = c * val[e];
}

/* The values of the triangular input y (lo < hi) at u[0..B-1] into val:
 * draw()'s two sides, selected (hi - r = hi + (-r) exactly; the sign of
 * r flipped, |q| by its sign bit cleared: q >= 0), two lanes at a time
 * where SSE2 is (the same operations, each exactly rounded: sqrt is). */
static void triangular_block(const mc_in *y, const double *u, double *val)
{
    double lo = y->lo, hi = y->hi, w = hi - lo, a = y->c - lo, b = hi - y->c, fc = a / w;
    size_t e = 0;
#if defined(__SSE2__)
    const __m128d vfc = _mm_set1_pd(fc), vw = _mm_set1_pd(w), va = _mm_set1_pd(a), vb = _mm_set1_pd(b),
                  one = _mm_set1_pd(1), vlo = _mm_set1_pd(lo), vhi = _mm_set1_pd(hi), sign = _mm_set1_pd(-0.0);
    for (; e + 2 <= MC_BLOCK; e += 2) {
        __m128d x = _mm_loadu_pd(u + e), below = _mm_cmplt_pd(x, vfc);
        __m128d q_lo = _mm_mul_pd(_mm_mul_pd(x, vw), va), q_hi = _mm_mul_pd(_mm_mul_pd(_mm_sub_pd(one, x), vw), vb);
        __m128d q = _mm_or_pd(_mm_and_pd(below, q_lo), _mm_andnot_pd(below, q_hi));
        __m128d r = _mm_sqrt_pd(_mm_andnot_pd(sign, q));
        __m128d base = _mm_or_pd(_mm_and_pd(below, vlo), _mm_andnot_pd(below, vhi));
        _mm_storeu_pd(val + e, _mm_add_pd(base, _mm_xor_pd(r, _mm_andnot_pd(below, sign))));
    }
#endif
    for (; e < MC_BLOCK; e++) {
        int below = u[e] < fc;
        double q_lo = u[e] * w * a, q_hi = (1 - u[e]) * w * b;
        double r = sqrt(fabs(below ? q_lo : q_hi));   /* q >= 0 (fabs: no errno path) */
        val[e] = (below ? lo : hi) + (below ? r : -r);
    }
}

/* The values of the uniform input y at u[0..B-1] into val (draw()'s). */
static void uniform_block(const mc_in *y, const double *u, double *val)
{
    double lo = y->lo, hi = y->hi;
    for (size_t e = 0; e < MC_BLOCK; e++) val[e] = lo + u[e] * (hi - lo);
}

/* v[e] *= factor(y, j, val[e]) for the block, the same bits: below the
 * central 1 + k_lo (c - x) = 1 + (-k_lo) (x - c) exactly (IEEE-754
 * subtraction and product are odd in their arguments), so one product
 * with the slope selected, not a branch per draw. */
static void factor_block(const mc_in *y, int j, const double *val, double *v)
{
    double c = y->c, klo = -y->k_lo[j], khi = y->k_hi[j];
    for (size_t e = 0; e < MC_BLOCK; e++) {
        double k = val[e] < c ? klo : khi;
        v[e] *= 1 + k * (val[e] - c);
    }
}

/* Where the fast path keeps input i's uniform numbers: the row of its
 * group's first member, numbered over the members that some input which
 * moves a figure reads (slot[i], or -1: its words are drawn and dropped);
 * the number of rows. */
static size_t slots_of(const mc_in *x, size_t m, int *slot)
{
    size_t rows = 0;
    for (size_t i = 0; i < m; i++) slot[i] = -1;
    for (size_t i = 0; i < m; i++)
        if ((moves(&x[i], 0) || moves(&x[i], 1) || moves(&x[i], 2)) && slot[x[i].lead] < 0)
            slot[x[i].lead] = (int)rows++;
    return rows;
}

/* The values of input y over the block at the uniform numbers u into
 * val; z: the quantiles of u (computed once per block for a group of
 * log-normal inputs: *z_done). */
static void values_block(const mc_in *y, const double *u, double *z, int *z_done, double *val)
{
    if (y->dist == D_LOGNORMAL) {
        if (!*z_done) quantile_block(u, z);
        *z_done = 1;
        lognormal_block(y, z, val);
    } else if (y->dist == D_UNIFORM || !(y->hi > y->lo)) uniform_block(y, u, val);
    else triangular_block(y, u, val);
}

/* The fast path, the same figures bit for bit, a block of draws at a
 * time: the block's words of the stream first (draw-major, as the
 * reference takes them; those of no input read are dropped), then input
 * after input over the block (in the reference's order, so each draw's
 * product is formed in the same order), inputs that move no figure
 * skipped, the normal quantile of a group's shared number once; v[j nb +
 * k] is figure j of draw k, nb = n rounded up to whole blocks (the last
 * block's spare draws are computed and not read). */
static int draws_fast(const mc_in *x, size_t m, size_t n, uint64_t seed, const double c0[3], double *v)
{
    size_t nb = (n + MC_BLOCK - 1) / MC_BLOCK * MC_BLOCK, mm = m ? m : 1;
    int *slot = malloc(mm * sizeof *slot), *z_done = malloc(mm * sizeof *z_done);
    double *U = calloc(2 * mm * MC_ROW, sizeof *U), val[MC_BLOCK];   /* U[s MC_ROW + e]: row s, draw e */
    if (!U || !slot || !z_done) {
        free(U), free(slot), free(z_done);
        return -1;
    }
    double *Z = U + mm * MC_ROW;   /* the rows' normal quantiles */
    slots_of(x, m, slot);
    jci_rng r;
    jci_rng_seed(&r, seed);
    for (size_t q = 0; q < 3 * nb; q++) v[q] = 1;
    for (size_t k0 = 0; k0 < nb; k0 += MC_BLOCK) {
        for (size_t e = 0; e < MC_BLOCK && k0 + e < n; e++)
            for (size_t i = 0; i < m; i++) {
                uint64_t w = jci_rng_next(&r);   /* the stream advances for every input */
                if (slot[i] >= 0) U[(size_t)slot[i] * MC_ROW + e] = (double)(w >> 11) * 0x1.0p-53;
            }
        for (size_t i = 0; i < m; i++) z_done[i] = 0;
        for (size_t i = 0; i < m; i++) {
            const mc_in *y = &x[i];
            if (!(moves(y, 0) || moves(y, 1) || moves(y, 2))) continue;
            size_t row = (size_t)slot[y->lead] * MC_ROW;
            values_block(y, U + row, Z + row, &z_done[slot[y->lead]], val);
            for (int j = 0; j < 3; j++)
                if (moves(y, j)) factor_block(y, j, val, v + j * nb + k0);
        }
    }
    for (int j = 0; j < 3; j++)
        for (size_t k = 0; k < n; k++) v[j * nb + k] = c0[j] * v[j * nb + k];
    free(U), free(slot), free(z_done);
    return 0;
}

jc_status jci_montecarlo_percentiles(const jc_job *job, const jc_estimate *e, int reference, jc_pct out[3],
                                     jc_diag *d)
{
    size_t n = (size_t)job->draws, m = e->n_sensitivity;
    size_t stride = reference ? n : (n + MC_BLOCK - 1) / MC_BLOCK * MC_BLOCK;
    double *v = malloc(6 * stride * sizeof *v), *u = malloc((m ? m : 1) * sizeof *u);   /* v: 3 figures + 3 scratch */
    mc_in *x = malloc((m ? m : 1) * sizeof *x);
    int bad = !v || !u || !x;
    if (!bad) {
        double c0[3] = {e->co2_kg.central, e->energy_facility_kwh.central, e->wall_hours.central};
        uint64_t seed = isnan(job->seed) ? 0 : (uint64_t)job->seed;
        inputs_of(e, x, NULL);
        if (reference) draws_reference(x, m, n, seed, c0, v, u);
        else bad = draws_fast(x, m, n, seed, c0, v);
    }
    if (!bad)
        for (int j = 0; j < 3; j++) out[j] = pct(v + j * stride, n, v + 3 * stride);   /* 3 n of scratch */
    free(v);
    free(u);
    free(x);
    return bad ? jci_diag_set(d, JC_ERR_NOMEM, "out of memory") : JC_OK;
}

jc_status jci_montecarlo_run(const jc_job *job, jc_estimate *e, jc_diag *d)
{
    size_t m = e->n_sensitivity;
    jc_mc_input *in = jci_arena_calloc(jci_estimate_arena(e), m ? m : 1, sizeof *in);
    mc_in *x = malloc((m ? m : 1) * sizeof *x);
    jc_pct p[3];
    jc_status st = !in || !x ? jci_diag_set(d, JC_ERR_NOMEM, "out of memory") : JC_OK;
    if (!st) inputs_of(e, x, in);
    free(x);
    if (!st) st = jci_montecarlo_percentiles(job, e, 0, p, d);
    if (st) return st;
    e->mc_co2_kg = p[0];
    e->mc_energy_facility_kwh = p[1];
    e->mc_wall_hours = p[2];
    e->has_mc = 1;
    e->mc_draws = (double)job->draws;
    e->mc_seed = isnan(job->seed) ? 0 : job->seed;
    e->mc_inputs = in;
    e->n_mc_inputs = m;
    return JC_OK;
}
