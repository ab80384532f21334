/*
 * calibrate.c (workflows) - `joulecast calibrate`: fits the effective utilisation
 * (MFU) and the energy per FLOP of a device to a measured run, and writes
 * them as an hwdb override layer (docs/energy-model.md "Calibration").
 *
 * Two parts (the measurement CSV it fits to - CodeCarbon's emissions.csv
 * or the simple form - is read by jc_measurements_load, in the trace
 * stage: src/trace/measurements.c):
 *   jc_calibrate()           finds, by bisection over the job's
 *                            utilisation, the value whose roofline
 *                            prediction reproduces the measured duration
 *                            (else the measured device energy), then
 *                            solves the joules-per-op method's device
 *                            energy, linear in the energy per FLOP, for
 *                            the measured energy;
 *   jc_calibration_write_yaml()  the override file, every value marked
 *                            `measured:` with the file, line and date.
 *
 * The fit runs the real estimator (jc_estimate_run) at each trial value,
 * so the fitted numbers reproduce the measurement through exactly the code
 * that will later use them.  Nothing here prints.
 */
#include "joulecast.h" /* JC_VERSION */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "estimate/akeys.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- fit --------------------------------------------------------------------------- */

/* The job of the measured run: the file's device count when the job has
 * none. */
static jc_job measured_job(const jc_job *job, const jc_measurement *m)
{
    jc_job j = *job;
    if (isnan(j.count) && !j.host && m->devices >= 1) j.count = m->devices;
    return j;
}

/* The measured device energy: CPU energy for a CPU device, else the
 * accelerators' energy. */
static double meas_device_kwh(const jc_device *dev, const jc_measurement *m)
{
    if (dev && dev->kind == JC_DEVICE_CPU && !isnan(m->cpu_kwh)) return m->cpu_kwh;
    return m->device_kwh;
}

/* One estimate of the job at utilisation u by `method`: its wall hours,
 * device kWh and FLOPs, and (joules-per-op) the energy per FLOP it
 * charged, jop.pj_per_flop (the device's spec-derived value x
 * jop_op_energy_scale) or the device's measured device.pj_per_flop; any
 * output may be NULL. */
static jc_status trial_pj(const jc_job *j0, const jc_analysis *an, const jc_hwdb *db, double u,
                          jc_method method, double *hours, double *kwh, double *flops, double *pj, jc_diag *d)
{
    jc_job j = *j0;
    j.utilization = u;
    j.method = method;
    j.per_node = 0;
    jc_estimate *e = NULL;
    jc_status st = jc_estimate_run(&j, an, db, &e, d);
    if (st) return st;
    if (hours) *hours = e->wall_hours.central;
    if (kwh) *kwh = e->energy_device_kwh.central;
    if (flops) *flops = e->flops_total;
    if (pj) {
        const jc_assumption *a = jci_estimate_assumption(e, JCI_AK_JOP_PJ_PER_FLOP);
        if (!a) a = jci_estimate_assumption(e, JCI_AK_PJ_PER_FLOP);
        *pj = a ? a->value.central : NAN;
    }
    jc_estimate_free(e);
    return JC_OK;
}

/* One roofline (or joules-per-op) run at utilisation u (NAN: the hwdb's). */
static jc_status trial(const jc_job *j0, const jc_analysis *an, const jc_hwdb *db, double u,
                       jc_method method, double *hours, double *kwh, double *flops, jc_diag *d)
{
    return trial_pj(j0, an, db, u, method, hours, kwh, flops, NULL, d);
}

static double rel(double pred, double meas)
{
    return isfinite(pred) && isfinite(meas) && meas > 0 ? (pred - meas) / meas : NAN;
}

jc_status jc_calibrate_check(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                             const jc_measurement *m, jc_calib_check *out, jc_diag *d)
{
    jci_diag_clear(d);
    if (!job || !db || !m || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_calibrate_check: NULL argument");
    jc_job j = measured_job(job, m);
    out->hours = out->device_kwh = out->device_kwh_jpo = NAN;
    jc_status st = trial(&j, an, db, job->utilization, JC_METHOD_ROOFLINE, &out->hours, &out->device_kwh, NULL, d);
    if (st) return st;
    jc_diag tmp;
    if (trial(&j, an, db, job->utilization, JC_METHOD_JOULES_PER_OP, NULL, &out->device_kwh_jpo, NULL, &tmp))
        out->device_kwh_jpo = NAN;   /* the device has no energy per FLOP: n/a */
    const jc_device *dev = NULL;
    jc_estimate *e = NULL;
    if (jc_estimate_run(&j, an, db, &e, &tmp) == JC_OK) {
        dev = e->device;
        jc_estimate_free(e);
    }
    double mk = meas_device_kwh(dev, m);
    out->err_hours = rel(out->hours, m->duration_s / JCI_S_PER_H);
    out->err_kwh = rel(out->device_kwh, mk);
    out->err_kwh_jpo = rel(out->device_kwh_jpo, mk);
    return JC_OK;
}

/* Bisection for u in [lo, hi] where g(u) = target, g non-increasing in u. */
typedef struct fitctx {
    const jc_job *j;
    const jc_analysis *an;
    const jc_hwdb *db;
    int by_energy;
} fitctx;

static jc_status g_of(const fitctx *c, double u, double *v, jc_diag *d)
{
    double h, k;
    jc_status st = trial(c->j, c->an, c->db, u, JC_METHOD_ROOFLINE, &h, &k, NULL, d);
    *v = c->by_energy ? k : h;
    return st;
}

jc_status jc_calibrate(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                       const jc_measurement *m, jc_calibration *out, jc_diag *d)
{
    jci_diag_clear(d);
    if (!job || !db || !m || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_calibrate: NULL argument");
    memset(out, 0, sizeof *out);
    if (!isnan(job->utilization))
        return jci_diag_set(d, JC_ERR_USAGE, "calibrate: --utilization is what calibrate fits; leave it out");
    if (!isnan(job->hours) || !isnan(job->device_hours) || !isnan(job->avg_power_w))
        return jci_diag_set(d, JC_ERR_USAGE, "calibrate: --hours, --device-hours and --avg-power bypass the model "
                           "being fitted; the measurement gives them");
    jc_job j = measured_job(job, m);
    j.method = JC_METHOD_ROOFLINE;
    jc_estimate *e = NULL;
    jc_status st = jc_estimate_run(&j, an, db, &e, d);
    if (st) return st;
    const jc_device *dev = e->device;
    snprintf(out->device_id, sizeof out->device_id, "%s", e->device_id);
    out->mode = e->mode;
    out->devices = e->devices;
    out->precision = e->prec;
    jc_range ua = e->utilization;
    out->util_before = ua.central > 0 ? ua.central : NAN;
    double rlo = ua.central > 0 ? ua.low / ua.central : 1;
    double rhi = ua.central > 0 ? ua.high / ua.central : 1;
    jc_estimate_free(e);
    if (!dev) return jci_diag_set(d, JC_ERR_INTERNAL, "calibrate: device %s vanished", out->device_id);

    out->meas_hours = m->duration_s / JCI_S_PER_H;
    out->meas_device_kwh = meas_device_kwh(dev, m);
    if ((st = jc_calibrate_check(&j, an, db, m, &out->before, d))) return st;

    /* 1. utilisation */
    fitctx c = {&j, an, db, 0};
    double target;
    if (isfinite(out->meas_hours)) {
        target = out->meas_hours;
        snprintf(out->util_from, sizeof out->util_from, "duration");
    } else if (isfinite(out->meas_device_kwh)) {
        c.by_energy = 1;
        target = out->meas_device_kwh;
        snprintf(out->util_from, sizeof out->util_from, "energy");
    } else {
        return jci_diag_set(d, JC_ERR_USAGE, "calibrate: line %d gives neither a duration nor a device energy",
                           m->line);
    }
    const char *what = c.by_energy ? "device energy" : "wall time";
    const char *unit = c.by_energy ? "kWh" : "h";
    double lo = 1e-4, hi = 1, glo, ghi;
    if ((st = g_of(&c, lo, &glo, d)) || (st = g_of(&c, hi, &ghi, d))) return st;
    if (target < ghi * (1 - 1e-12))
        return jci_diag_set(d, JC_ERR_RANGE, "calibrate: the measured %s %s %s is below the %s %s predicted at "
                           "full utilisation (1.0) of %s x %s: check the job (work, batch, device count) against "
                           "the run", what, FMT_N(target), unit, FMT_N(ghi), unit, FMT_N(out->devices), out->device_id);
    if (target > glo * (1 + 1e-12))
        return jci_diag_set(d, JC_ERR_RANGE, "calibrate: the measured %s %s %s is above the %s %s predicted at "
                           "a utilisation of 0.0001: check the job against the run", what, FMT_N(target), unit, FMT_N(glo), unit);
    if (glo == ghi)
        return jci_diag_set(d, JC_ERR_RANGE, "calibrate: the predicted %s does not depend on the utilisation "
                           "(all work is memory-bound): nothing to fit", what);
    /* g falls with u; bisect in log space: u spans four decades */
    for (int it = 0; it < 80 && hi / lo > 1 + 1e-12; it++) {
        double mid = sqrt(lo * hi), gm;
        if ((st = g_of(&c, mid, &gm, d))) return st;
        if (gm > target) lo = mid;
        else hi = mid;
    }
    out->fit_util = 1;
    out->util_after = sqrt(lo * hi);
    out->util_low = out->util_after * rlo;
    out->util_high = fmin(1, out->util_after * rhi);

    /* 2. energy per FLOP, at the fitted utilisation (the time is then the measured one) */
    if (c.by_energy || !isfinite(out->meas_device_kwh)) {
        snprintf(out->pj_note, sizeof out->pj_note, "%s",
                 c.by_energy ? "the energy fixed the utilisation; a duration is needed to fit energy per FLOP too"
                             : "no device energy measured");
        return JC_OK;
    }
    const jc_sourced *pf = &dev->pj_per_flop[out->precision];
    if (!pf->present) {
        snprintf(out->pj_note, sizeof out->pj_note, "device %s has no energy per FLOP at %s to start from",
                 dev->id, jc_precision_name(out->precision));
        return JC_OK;
    }
    double k1, F, e0;
    if ((st = trial_pj(&j, an, db, out->util_after, JC_METHOD_JOULES_PER_OP, NULL, &k1, &F, &e0, d))) return st;
    /* E(e) = E(e0) + (e - e0) F: linear in the energy per FLOP charged
     * (e0: the device's value, scaled by jop_op_energy_scale unless measured) */
    if (!isfinite(e0)) e0 = pf->value;
    double pj = e0 + (out->meas_device_kwh - k1) * JCI_J_PER_KWH / F * 1e12;
    out->pj_before = pf->value;
    if (!isfinite(pj)) {
        snprintf(out->pj_note, sizeof out->pj_note, "the measured device energy %s kWh gives an energy per "
                 "FLOP that is not finite: not fitted", FMT_N(out->meas_device_kwh));
        return JC_OK;
    }
    if (!(F > 0) || !(pj > 0)) {
        snprintf(out->pj_note, sizeof out->pj_note, "the measured device energy %s kWh is below the idle floor "
                 "and memory traffic the joules-per-op method predicts (%s kWh at %s pJ/FLOP): not fitted",
                 FMT_N(out->meas_device_kwh), FMT_N(k1), FMT_N(pf->value));
        return JC_OK;
    }
    out->fit_pj = 1;
    out->pj_after = pj;
    return JC_OK;
}

/* ---- override file ---------------------------------------------------------------- */

/* The power fit's idle power, in the device's entry (written last). */
static void write_idle(FILE *f, const jc_power_fit *p)
{
    if (!p->fitted || !p->fit_idle) return;
    char buf[1500], before[48];
    if (isnan(p->idle_before)) snprintf(before, sizeof before, "n/a");
    else snprintf(before, sizeof before, "%s W", FMT_N(p->idle_before));
    snprintf(buf, sizeof buf, "fitted by joulecast calibrate: the mean power of the %zu samples at 0 %% "
             "utilisation of %s; hwdb value before: %s", p->idle_samples, p->detail, before);
    fprintf(f, "    idle_w: {value: %s, source: calibration, measured: ", FMT_M(p->idle_after));
    jci_yaml_quote(f, buf);
    fprintf(f, "}\n");
}

jc_status jc_calibration_write_power_yaml(const jc_calibration *c, const char *date, FILE *f, jc_diag *d)
{
    jci_diag_clear(d);
    if (!c || !f) return jci_diag_set(d, JC_ERR_USAGE, "jc_calibration_write_power_yaml: NULL argument");
    const jc_power_fit *p = &c->power;
    char chk[11], buf[1500];
    jci_date_ymd(chk, date ? date : "");
    if (!p->fitted) return jci_diag_set(d, JC_ERR_USAGE, "calibrate: no power coefficient was fitted");
    if (!chk[0]) return jci_diag_set(d, JC_ERR_USAGE, "calibrate: the power layer has no date; give --date YYYY-MM-DD");
    fprintf(f, "# joulecast %s calibration: the device power model fitted to a trace, an hwdb override layer\n"
               "# (docs/traces.md \"Power fit\").  Use it with the device layer beside it:\n"
               "# joulecast estimate --hwdb DEVICE_LAYER --hwdb THIS_FILE ...\n", JC_VERSION);
    fprintf(f, "schema: joulecast-hwdb/1\nsources:\n  calibration:\n    citation: ");
    snprintf(buf, sizeof buf, "joulecast calibrate: power against utilisation in %s", p->detail);
    jci_yaml_quote(f, buf);
    fprintf(f, "\n    date: \"%s\"\n    note: ", chk);
    snprintf(buf, sizeof buf, "%s x %s, %s, %s", FMT_N(c->devices), c->device_id, jc_mode_name(c->mode),
             jc_precision_name(c->precision));
    jci_yaml_quote(f, buf);
    fprintf(f, "\nconstants:\n");
    for (int i = 0; i < 2; i++) {
        if (i == 1 && !p->fit_km) break;
        double v = i ? p->km_after : p->kc_after, kt = i ? p->km_trace : p->kc_trace;
        double se = i ? p->km_trace_se : p->kc_trace_se, u = i ? p->um_mean : p->u_mean;
        double ur = i ? p->um_run : p->uc_run;
        snprintf(buf, sizeof buf, "fitted by joulecast calibrate (least squares, power against utilisation, "
                 "P = idle + (TDP - idle)(1 - exp(-(k_c u + k_m um))), TDP %s W) to %s: %s +- %s on the "
                 "trace's %s utilisation, x %s / %s (its mean over the active window / the run's %s on the "
                 "model's scale)%s; low/high: 2 standard errors; hwdb value before: %s; applies to every device of "
                 "this kind the layer is used with", FMT_N(p->tdp_w), p->detail, FMT_N(kt), FMT_N(se), i ? "memory" : "compute", FMT_N(u), FMT_N(ur),
                 i ? "bytes/s over bandwidth" : "FLOP/s over peak",
                 !i && !p->fit_km ? ", less the database's memory term at the run's mean" : "",
                 FMT_N(i ? p->km_before : p->kc_before));
        /* low/high: 2 standard errors of the trace-scale fit, on the model's scale */
        double sc = kt > 0 ? v / kt : 0, lo = fmax(0, (kt - 2 * se) * sc), hi = (kt + 2 * se) * sc;
        if (!isfinite(lo) || !isfinite(hi)) lo = hi = v;
        fprintf(f, "  - id: %s\n    value: %s\n    low: %s\n    high: %s\n    unit: \"1\"\n"
                "    source: calibration\n    derived: ", i ? p->km_id : p->kc_id, FMT_M(v), FMT_M(fmin(lo, v)),
                FMT_M(fmax(hi, v)));
        jci_yaml_quote(f, buf);
        fprintf(f, "\n");
    }
    if (ferror(f)) return jci_diag_set(d, JC_ERR_IO, "calibrate: write failed");
    return JC_OK;
}

jc_status jc_calibration_write_yaml(const jc_calibration *c, const jc_measurements *ms,
                                    const jc_measurement *m, const char *date, FILE *f, jc_diag *d)
{
    jci_diag_clear(d);
    if (!c || !ms || !m || !f) return jci_diag_set(d, JC_ERR_USAGE, "jc_calibration_write_yaml: NULL argument");
    const char *when = m->date[0] ? m->date : date;
    char chk[11];
    jci_date_ymd(chk, when ? when : "");
    if (!chk[0])
        return jci_diag_set(d, JC_ERR_USAGE, "calibrate: %s%s%.0d has no date; give --date YYYY-MM-DD", ms->path,
                           m->line ? ":" : "", m->line);
    if (!c->fit_util && !c->fit_pj && !c->power.fitted)
        return jci_diag_set(d, JC_ERR_USAGE, "calibrate: nothing was fitted");
    /* a layer that the loader would refuse is not written (every value finite) */
    if ((c->fit_util && !(isfinite(c->util_after) && isfinite(c->util_low) && isfinite(c->util_high))) ||
        (c->fit_pj && !isfinite(c->pj_after)) ||
        (c->power.fitted && !(isfinite(c->power.idle_after))))
        return jci_diag_set(d, JC_ERR_RANGE, "calibrate: a fitted value is not finite (utilisation %g, "
                            "energy per FLOP %g pJ): the measurement is out of range; nothing written",
                            c->util_after, c->pj_after);
    char buf[1500], meas[400];
    if (ms->detail)
        snprintf(meas, sizeof meas, "%s", ms->detail);
    else
        snprintf(meas, sizeof meas, "%s, line %d (%s, run of %s)", ms->path, m->line,
                 !strcmp(ms->format, "codecarbon") ? "CodeCarbon emissions.csv" : "measurement CSV", chk);
    fprintf(f, "# joulecast %s calibration: an hwdb override layer (docs/hwdb-schema.md).\n"
               "# Use it with: joulecast estimate --hwdb THIS_FILE ...\n", JC_VERSION);
    fprintf(f, "schema: joulecast-hwdb/1\nsources:\n  calibration:\n    citation: ");
    snprintf(buf, sizeof buf, "joulecast calibrate: measured run in %s", meas);
    jci_yaml_quote(f, buf);
    fprintf(f, "\n    date: \"%s\"\n    note: ", chk);
    snprintf(buf, sizeof buf, "%s x %s, %s, %s; measured %s h, device energy %s kWh",
             FMT_N(c->devices), c->device_id, jc_mode_name(c->mode), jc_precision_name(c->precision),
             FMT_N(c->meas_hours), FMT_N(c->meas_device_kwh));
    jci_yaml_quote(f, buf);
    fprintf(f, "\ndevices:\n  - id: %s\n", c->device_id);
    if (c->fit_util) {
        char ub[32];
        fmt_num(ub, sizeof ub, c->util_before);
        snprintf(buf, sizeof buf, "fitted by joulecast calibrate to the measured %s (%s) of %s; hwdb value before: %s; "
                 "low/high: %s",
                 !strcmp(c->util_from, "duration") ? "wall time" : "device energy",
                 !strcmp(c->util_from, "duration") ? "roofline time" : "roofline device energy", meas, ub,
                 isnan(c->util_before) ? "the fitted value (the hwdb has no utilisation figure to take a range from)"
                                       : "the hwdb's relative range around the fitted value");
        fprintf(f, "    utilization:\n      %s: {value: %s, low: %s, high: %s, source: calibration, measured: ",
                jc_mode_name(c->mode), FMT_M(c->util_after), FMT_M(c->util_low), FMT_M(c->util_high));
        jci_yaml_quote(f, buf);
        fprintf(f, "}\n");
    }
    if (c->fit_pj) {
        snprintf(buf, sizeof buf, "fitted by joulecast calibrate to the measured device energy of %s "
                 "(joules-per-op method at the fitted utilisation); hwdb value before: %s", meas, FMT_N(c->pj_before));
        fprintf(f, "    energy:\n      pj_per_flop:\n        %s: {value: %s, source: calibration, measured: ",
                jc_precision_name(c->precision), FMT_M(c->pj_after));
        jci_yaml_quote(f, buf);
        fprintf(f, "}\n");
    }
    write_idle(f, &c->power);
    if (ferror(f)) return jci_diag_set(d, JC_ERR_IO, "calibrate: write failed");
    return JC_OK;
}
