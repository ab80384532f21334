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

double jci_exp(double x)
{
    static const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    double k = floor(x * 1.44269504088896338700 + 0.5);
    /* 1/i! (each literal quotient exactly rounded at compile time); |r| <= 0.35: r^15/15! < 2e-19 */
    static const double inv[15] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
                                   1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600,
                                   1.0 / 6227020800.0, 1.0 / 87178291200.0};
    double r = (x - k * ln2_hi) - k * ln2_lo, p = inv[14];
    for (int i = 13; i >= 0; i--) p = p * r + inv[i];
    return ldexp(p, (int)k);
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

double jci_norm_central_quantile(double p)
{
    static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                6.680131188771972e+01, -1.328068155288572e+01};
    double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

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

/* p5, p50, p95 of v[n] (reordered; nearest rank: the ceil(p n)-th smallest). */
static jc_pct pct(double *v, size_t n)
{
    jc_pct p;
    p.p5 = select_k(v, 0, n - 1, (5 * n + 99) / 100 - 1);
    p.p50 = select_k(v, 0, n - 1, (50 * n + 99) / 100 - 1);
    p.p95 = select_k(v, 0, n - 1, (95 * n + 99) / 100 - 1);
    return p;
}

jc_status jci_montecarlo_run(const jc_job *job, jc_estimate *e, jc_diag *d)
{
    size_t n = (size_t)job->draws, m = e->n_sensitivity;
    jci_arena *a = jci_estimate_arena(e);
    jc_mc_input *in = jci_arena_calloc(a, m ? m : 1, sizeof *in);
    double *v = malloc(3 * n * sizeof *v), *u = malloc((m ? m : 1) * sizeof *u);
    mc_in *x = malloc((m ? m : 1) * sizeof *x);
    if (!in || !v || !u || !x) {
        free(v);
        free(u);
        free(x);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    double c0[3] = {e->co2_kg.central, e->energy_facility_kwh.central, e->wall_hours.central};
    for (size_t i = 0; i < m; i++) {
        const jc_sensitivity *s = &e->sensitivity[i];
        size_t row = dist_row(s->key);
        in[i] = (jc_mc_input){s->key, dist_name[DIST[row].dist], DIST[row].reason, DIST[row].group};
        mc_in *y = &x[i];
        *y = (mc_in){.dist = DIST[row].dist, .lo = s->low, .c = s->central, .hi = s->high, .lead = i};
        if (y->dist == D_LOGNORMAL && !(y->lo > 0 && y->c > 0)) y->dist = D_TRIANGULAR;   /* no log of 0 */
        if (y->dist == D_LOGNORMAL) {
            y->s_lo = own_log(y->c / y->lo) / 1.6448536269514722;
            y->s_hi = own_log(y->hi / y->c) / 1.6448536269514722;
        }
        for (size_t q = 0; q < i && DIST[row].group; q++)
            if (!strcmp(in[q].group ? in[q].group : "", DIST[row].group)) { y->lead = q; break; }
        double lo3[3] = {s->co2_low, s->kwh_low, s->hours_low}, hi3[3] = {s->co2_high, s->kwh_high, s->hours_high};
        for (int j = 0; j < 3; j++) {
            double r_lo = c0[j] > 0 ? lo3[j] / c0[j] : 1, r_hi = c0[j] > 0 ? hi3[j] / c0[j] : 1;
            y->k_lo[j] = y->c > y->lo ? (r_lo - 1) / (y->c - y->lo) : 0;
            y->k_hi[j] = y->hi > y->c ? (r_hi - 1) / (y->hi - y->c) : 0;
        }
    }
    jci_rng r;
    jci_rng_seed(&r, isnan(job->seed) ? 0 : (uint64_t)job->seed);
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
    e->mc_co2_kg = pct(v, n);
    e->mc_energy_facility_kwh = pct(v + n, n);
    e->mc_wall_hours = pct(v + 2 * n, n);
    e->has_mc = 1;
    e->mc_draws = (double)n;
    e->mc_seed = isnan(job->seed) ? 0 : job->seed;
    e->mc_inputs = in;
    e->n_mc_inputs = m;
    free(v);
    free(u);
    free(x);
    return JC_OK;
}
