/*
 * trace_fit.c (workflows) - calibrate's power fit (docs/traces.md "Power fit"): the
 * device power model of src/estimate/power.c,
 *   P = idle + (TDP - idle) (1 - exp(-(k_c u + k_m um))),
 * fitted by least squares to a trace's device samples (power against the
 * utilisation columns, binned to 1 % by trace.c), with TDP the database's
 * and the idle power the mean of the samples at 0 % utilisation.  The
 * model is evaluated through jci_power_device_w (one equation); the
 * minimiser is Levenberg-Marquardt on one or two coefficients.  The
 * fitted coefficients are on the trace's scale (a time share of busy
 * kernels / memory); jci_trace_power_fit puts them on the model's scale
 * (achieved FLOP/s / peak, bytes/s / bandwidth) by matching the exponent
 * at the run's mean operating point.
 */
#include "base/fmt.h"
#include "workflows/trace_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pt { double n, w, g, m; } pt;   /* a bin: samples, mean power, mean u, mean um */

typedef struct fitset {
    pt *p;
    size_t np;
    double within;         /* sum of squares of the samples about their bin means, W^2 */
    double n;              /* samples */
    jci_power_model pm;     /* idle and TDP set; k per trial */
    int two;               /* k_m fitted too (else um is not used) */
} fitset;

static jc_range r1(double v)
{
    jc_range r;
    r.low = r.central = r.high = v;
    return r;
}

static double model(const fitset *s, const double *k, const pt *q)
{
    jci_power_model pm = s->pm;
    pm.k[JCI_PW_K_COMPUTE] = r1(k[0]);
    pm.k[JCI_PW_K_MEMORY] = r1(s->two ? k[1] : 0);
    return jci_power_device_w(&pm, q->g, s->two ? q->m : 0, JCI_POWER_BUSY, 1);
}

static double sse(const fitset *s, const double *k)
{
    double e = s->within;
    for (size_t i = 0; i < s->np; i++) {
        double r = s->p[i].w - model(s, k, &s->p[i]);
        e += s->p[i].n * r * r;
    }
    return e;
}

/* J^T W J (a) and J^T W r (b) at k, numerical derivatives. */
static void normal_eq(const fitset *s, const double *k, int np, double a[2][2], double b[2])
{
    memset(a, 0, 4 * sizeof a[0][0]);
    b[0] = b[1] = 0;
    for (size_t i = 0; i < s->np; i++) {
        const pt *q = &s->p[i];
        double f = model(s, k, q), J[2] = {0, 0};
        for (int c = 0; c < np; c++) {
            double kk[2] = {k[0], k[1]}, h = 1e-6 * (1 + fabs(k[c]));
            kk[c] += h;
            J[c] = (model(s, kk, q) - f) / h;
        }
        for (int c = 0; c < np; c++) {
            b[c] += q->n * J[c] * (q->w - f);
            for (int e = 0; e < np; e++) a[c][e] += q->n * J[c] * J[e];
        }
    }
}

static int solve(double a[2][2], const double *b, int np, double *x)
{
    if (np == 1) {
        if (!(a[0][0] > 0)) return -1;
        x[0] = b[0] / a[0][0];
        return 0;
    }
    double det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    if (!(fabs(det) > 0)) return -1;
    x[0] = (b[0] * a[1][1] - a[0][1] * b[1]) / det;
    x[1] = (a[0][0] * b[1] - a[1][0] * b[0]) / det;
    return 0;
}

/* Levenberg-Marquardt from k (coefficients >= 0); the standard errors
 * from the linearised covariance at the optimum. */
static void lm(const fitset *s, double *k, int np, double *se)
{
    double lambda = 1e-3, cur = sse(s, k);
    for (int it = 0; it < 200; it++) {
        double a[2][2], b[2], x[2] = {0, 0};
        normal_eq(s, k, np, a, b);
        double ad[2][2] = {{a[0][0] * (1 + lambda), a[0][1]}, {a[1][0], a[1][1] * (1 + lambda)}};
        if (solve(ad, b, np, x)) break;
        double kn[2] = {k[0], k[1]};
        for (int c = 0; c < np; c++) kn[c] = fmax(0, k[c] + x[c]);
        double e = sse(s, kn);
        if (e <= cur) {
            double step = fabs(kn[0] - k[0]) + (np > 1 ? fabs(kn[1] - k[1]) : 0);
            memcpy(k, kn, sizeof kn);
            cur = e;
            lambda /= 3;
            if (step < 1e-12 * (1 + k[0])) break;
        } else {
            lambda *= 4;
            if (lambda > 1e12) break;
        }
    }
    double a[2][2], b[2];
    normal_eq(s, k, np, a, b);
    double dof = s->n - np - 1;   /* the idle level is fitted too */
    double sig2 = dof > 0 ? cur / dof : NAN;
    se[0] = se[1] = NAN;
    if (np == 1 && a[0][0] > 0) se[0] = sqrt(sig2 / a[0][0]);
    if (np == 2) {
        double det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
        if (det > 0) {
            se[0] = sqrt(sig2 * a[1][1] / det);
            se[1] = sqrt(sig2 * a[0][0] / det);
        }
    }
}

/* Start values: the linearised model -ln(1 - (P - idle)/(TDP - idle)) =
 * k_c u (+ k_m um), weighted least squares through the origin. */
static void start(const fitset *s, int np, double *k)
{
    double a[2][2] = {{0, 0}, {0, 0}}, b[2] = {0, 0};
    double idle = s->pm.idle_w.central, span = s->pm.tdp_w.central - idle;
    for (size_t i = 0; i < s->np; i++) {
        const pt *q = &s->p[i];
        if (!(q->g > 0) || !(span > 0)) continue;
        double act = (q->w - idle) / span;
        act = act < 1e-6 ? 1e-6 : act > 0.999 ? 0.999 : act;
        double z = -log(1 - act), x[2] = {q->g, q->m};
        for (int c = 0; c < np; c++) {
            b[c] += q->n * x[c] * z;
            for (int e = 0; e < np; e++) a[c][e] += q->n * x[c] * x[e];
        }
    }
    k[0] = 1;
    k[1] = 0;
    double x[2];
    if (!solve(a, b, np, x)) {
        k[0] = fmax(1e-3, x[0]);
        if (np == 2) k[1] = fmax(0, x[1]);
    }
}

/* The bins of the grid as points: all samples (two = 0) or those with um
 * (two = 1); the idle mean from the bins at 0 % (u, and um when logged).
 * Returns the number of points (s->p malloc'ed). */
static size_t points(const tr_pgrid *g, int two, fitset *s, double *idle_n, double *idle_w)
{
    s->p = malloc(sizeof *s->p * TR_PG_N * (TR_PG_N + 1));
    s->np = 0;
    s->within = s->n = 0;
    *idle_n = *idle_w = 0;
    if (!s->p) return 0;
    for (int i = 0; i < TR_PG_N; i++)
        for (int j = 0; j <= TR_PG_N; j++) {
            const tr_pbin *b = &g->b[i][j];
            if (!(b->n > 0) || (two && j == TR_PG_N)) continue;
            pt q = {b->n, b->w / b->n, b->g / b->n, b->m / b->n};
            s->p[s->np++] = q;
            s->within += fmax(0, b->w2 - b->w * b->w / b->n);
            s->n += b->n;
            if (i == 0 && (j == 0 || j == TR_PG_N)) {
                *idle_n += b->n;
                *idle_w += b->w;
            }
        }
    if (*idle_n > 0) *idle_w /= *idle_n;
    return s->np;
}

/* The weighted correlation of u and um over the points with u > 0. */
static double corr(const fitset *s, double *var_m)
{
    double n = 0, sg = 0, sm = 0, sgg = 0, smm = 0, sgm = 0;
    for (size_t i = 0; i < s->np; i++) {
        const pt *q = &s->p[i];
        if (!(q->g > 0) && !(q->m > 0)) continue;
        n += q->n;
        sg += q->n * q->g;
        sm += q->n * q->m;
        sgg += q->n * q->g * q->g;
        smm += q->n * q->m * q->m;
        sgm += q->n * q->g * q->m;
    }
    if (!(n > 0)) { *var_m = 0; return NAN; }
    double vg = sgg / n - (sg / n) * (sg / n), vm = smm / n - (sm / n) * (sm / n);
    *var_m = vm;
    return vg > 0 && vm > 0 ? (sgm / n - sg * sm / (n * n)) / sqrt(vg * vm) : NAN;
}

/* Distinct utilisation levels above 0 among the points. */
static int levels(const fitset *s)
{
    int n = 0;
    for (size_t i = 0; i < s->np; i++) n += s->p[i].g > 0;
    return n;
}

/* Which fit the grid allows: two coefficients when um is logged for most
 * samples, varies, does not move with u and the run moves bytes; else
 * one (the reason in f->km_note).  The points of that fit into *s. */
static int choose(const tr_pgrid *g, double um_run, jc_power_fit *f, fitset *s, double *idle_n, double *idle_w)
{
    double var_m = 0, r = NAN;
    int two = 0;
    if (g->n_mem * 2 >= g->n && points(g, 1, s, idle_n, idle_w)) {
        r = corr(s, &var_m);
        two = var_m > 1e-6 && isfinite(r) && fabs(r) < 0.98 && levels(s) >= 3 && um_run > 0 && f->um_mean > 0;
    }
    if (two) return 1;
    free(s->p);
    points(g, 0, s, idle_n, idle_w);
    if (!g->n_mem)
        snprintf(f->km_note, sizeof f->km_note, "the trace logs no memory utilisation (utilization.memory, "
                 "DRAMA or MCPY): k_m is not separable; kept at the database's, k_c carries the rest");
    else if (!(um_run > 0))
        snprintf(f->km_note, sizeof f->km_note, "the job moves no counted bytes: k_m kept at the database's");
    else
        snprintf(f->km_note, sizeof f->km_note, "the memory utilisation %s (correlation %s with the compute "
                 "utilisation): k_m is not separable; kept at the database's, k_c carries the rest",
                 var_m <= 1e-6 ? "does not vary" : "moves with the compute utilisation", FMT_N(isfinite(r) ? r : 1.0));
    return 0;
}

/* One fit of s (np coefficients): k, standard errors, residuals with
 * the fit and with the database's model on the trace's scale. */
static void fit_set(fitset *s, int np, jc_power_fit *f, double *k, double *se)
{
    s->two = np == 2;
    s->pm.idle_w = r1(f->idle_after);
    s->pm.tdp_w = r1(f->tdp_w);
    start(s, np, k);
    lm(s, k, np, se);
    f->rms_w = sqrt(sse(s, k) / s->n);
    double k0[2] = {0, 0}, um = f->um_run > 0 ? f->um_run : 0;
    if (np == 2) {
        k0[0] = f->kc_before * f->uc_run / f->u_mean;
        k0[1] = f->km_before * f->um_run / f->um_mean;
    } else {
        k0[0] = (f->kc_before * f->uc_run + f->km_before * um) / f->u_mean;
    }
    s->pm.idle_w = r1(f->idle_before >= 0 ? f->idle_before : f->idle_after);
    f->rms_before_w = sqrt(sse(s, k0) / s->n);
}

void jci_trace_power_fit(const jc_trace *t, const jci_power_model *pm0, double uc_run, double um_run,
                         jc_power_fit *f)
{
    const tr_pgrid *g = tr_power_grid(t);
    f->attempted = 1;
    f->kc_id = pm0->id[JCI_PW_K_COMPUTE];
    f->km_id = pm0->id[JCI_PW_K_MEMORY];
    f->kc_before = f->kc_after = pm0->k[JCI_PW_K_COMPUTE].central;
    f->km_before = f->km_after = pm0->k[JCI_PW_K_MEMORY].central;
    f->idle_before = f->idle_after = pm0->idle_w.central;
    f->tdp_w = pm0->tdp_w.central;
    f->kc_trace = f->km_trace = f->kc_trace_se = f->km_trace_se = NAN;
    f->rms_w = f->rms_before_w = f->u_mean = f->um_mean = NAN;
    f->uc_run = uc_run;
    f->um_run = um_run;
    if (!g || !g->n) {
        snprintf(f->note, sizeof f->note, "the %s trace logs no utilisation per sample (power against utilisation "
                 "is what the fit needs: nvidia-smi utilization.gpu, dcgmi GPUTL)", jc_trace_format_name(t->format));
        return;
    }
    f->samples = g->n;
    f->mem_samples = g->n_mem;
    double T = t->active_s[JC_TRACE_DEVICE] * (double)(t->n_devices ? t->n_devices : 1);
    f->u_mean = T > 0 ? g->g_int / T : NAN;
    f->um_mean = T > 0 && g->n_mem ? g->m_int / T : NAN;
    if (!(f->tdp_w > 0)) {
        snprintf(f->note, sizeof f->note, "the device has no TDP in the database (the model's ceiling)");
        return;
    }
    if (!(uc_run > 0) || !(f->u_mean > 0)) {
        snprintf(f->note, sizeof f->note, "%s", !(uc_run > 0) ? "the job gives no FLOPs over the window: the model's "
                 "compute utilisation is unknown" : "the trace's mean utilisation over the active window is 0");
        return;
    }
    fitset s;
    memset(&s, 0, sizeof s);
    s.pm = *pm0;
    double idle_n, idle_w, k[2] = {0, 0}, se[2];
    int two = choose(g, um_run, f, &s, &idle_n, &idle_w);
    if (!s.p) { snprintf(f->note, sizeof f->note, "out of memory"); return; }
    f->idle_samples = (size_t)idle_n;
    if (idle_n > 0) {
        f->fit_idle = 1;
        f->idle_after = idle_w;
    } else {
        snprintf(f->idle_note, sizeof f->idle_note, "no sample at 0 %% utilisation: the database's idle power is used");
    }
    if (!(f->idle_after >= 0) || f->idle_after >= f->tdp_w || !levels(&s)) {
        snprintf(f->note, sizeof f->note, "%s", !levels(&s) ? "no sample above 0 % utilisation"
                 : "the idle power is unknown or not below the TDP");
        free(s.p);
        return;
    }
    fit_set(&s, two ? 2 : 1, f, k, se);
    if (two && !(k[0] > 1e-9 && k[1] > 1e-9)) {
        /* one coefficient at its bound: the samples do not separate them */
        snprintf(f->km_note, sizeof f->km_note, "the two-coefficient fit put %s at 0 (the samples do not separate "
                 "compute from memory activity): k_m kept at the database's, k_c carries the rest",
                 k[0] > 1e-9 ? "k_m" : "k_c");
        free(s.p);
        two = 0;
        points(g, 0, &s, &idle_n, &idle_w);
        if (!s.p) { snprintf(f->note, sizeof f->note, "out of memory"); return; }
        fit_set(&s, 1, f, k, se);
    }
    free(s.p);
    f->kc_trace = k[0];
    f->kc_trace_se = se[0];
    /* onto the model's scale: the exponent at the run's mean point */
    if (two) {
        f->fit_km = 1;
        f->km_trace = k[1];
        f->km_trace_se = se[1];
        f->kc_after = k[0] * f->u_mean / uc_run;
        f->km_after = k[1] * f->um_mean / um_run;
    } else {
        f->kc_after = (k[0] * f->u_mean - f->km_before * (um_run > 0 ? um_run : 0)) / uc_run;
    }
    if (!(f->kc_after > 0)) {
        snprintf(f->note, sizeof f->note, "k_c on the model's scale comes out %s (%s on the trace's scale, less "
                 "the database's memory term at the run's mean): not written", FMT_N(f->kc_after), FMT_N(k[0]));
        f->kc_after = f->kc_before;
        f->fit_km = 0;
        f->km_after = f->km_before;
        return;
    }
    f->fitted = 1;
}
