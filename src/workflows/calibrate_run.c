/*
 * calibrate_run.c (workflows) - the whole calibrate flow that `joulecast calibrate`
 * and the binding jc_run_calibrate_json share: the measurement source (a
 * measurement CSV or a power trace, integrated first) and its row
 * (jc_calib_source_open), the device the row names (jc_calib_source_device),
 * then the fit (with a trace, the device power fit of trace_fit.c too),
 * the override layers written, loaded back the caller's way and the
 * prediction checked with them (jc_calibrate_run).  The fit itself is
 * calibrate.c; front ends only parse options and render jc_calib_result.
 */
#include "base/jc_internal.h"
#include "workflows/trace_fit.h"
#include "estimate/efficiency.h"   /* jci_runtime_fastest_kernels */
#include "joulecast/calibrate.h"
#include "joulecast/bind.h"
#include "joulecast/model.h"   /* the model's fields */
#include "joulecast/analysis.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct src_int {
    jc_measurements tms;       /* a trace's rows (borrowed from the trace) */
    jc_measurement trow;
    jc_measurements *loaded;   /* a measurement CSV's rows (owned) */
    jc_trace *tr;              /* the trace (owned) */
} src_int;

/* A path of the measurement file made relative to the file's folder. */
static void beside(char *dst, size_t cap, const char *file, const char *p)
{
    const char *slash = strrchr(file, '/');
    if (p[0] == '/' || !slash) snprintf(dst, cap, "%s", p);
    else snprintf(dst, cap, "%.*s/%s", (int)(slash - file), file, p);
}

static jc_status misuse(int *usage, jc_diag *d)
{
    if (usage) *usage = 1;
    return d->status;
}

/* Reads the trace at s->path into s (a trace must measure the devices). */
static jc_status open_trace(jc_calib_source *s, src_int *in, const jc_trace_opts *o, int *usage,
                            jc_diag *d)
{
    jc_status st = jc_trace_load(s->path, o, &in->tr, d);
    if (st) return st;
    if (!in->tr->has_scope[JC_TRACE_DEVICE]) {
        jci_diag_set(d, JC_ERR_USAGE, "%s measured no device (scope %s): calibrate fits the devices; use it "
                     "with estimate --measured", s->path, in->tr->has_scope[JC_TRACE_WALL] ? "wall" : "host");
        return misuse(usage, d);
    }
    jc_trace_measurements(in->tr, &in->tms, &in->trow);
    s->trace = in->tr;
    s->ms = &in->tms;
    return JC_OK;
}

jc_status jc_calib_source_open(const char *path, const jc_trace_opts *topts, int trace_opt,
                               double row, jc_calib_source **out, int *usage, jc_diag *d)
{
    if (usage) *usage = 0;
    if (!out || !path) return jci_diag_set(d, JC_ERR_USAGE, "calibrate: no measurement file");
    *out = NULL;
    jc_calib_source *s = calloc(1, sizeof *s);
    src_int *in = calloc(1, sizeof *in);
    if (!s || !in) {
        free(s);
        free(in);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    s->internal_ = in;
    s->path = path;
    jc_trace_opts o;
    if (topts) o = *topts;
    else jc_trace_opts_init(&o);
    jc_trace_format tf = o.format;
    jc_status st = JC_OK;
    if (tf == JC_TRACE_AUTO) st = jc_trace_detect(path, &tf, d);
    if (!st && tf != JC_TRACE_AUTO && tf != JC_TRACE_CODECARBON) {
        o.format = tf;
        st = open_trace(s, in, &o, usage, d);
    } else if (!st && trace_opt && tf != JC_TRACE_CODECARBON) {
        jci_diag_set(d, JC_ERR_USAGE, "%s is not a power trace: --trace-format, --scope, --gap, --idle-w and "
                     "--interval have no effect", path);
        st = misuse(usage, d);
    } else if (!st && (o.scope >= 0 || !isnan(o.gap_s) || !isnan(o.idle_w) || !isnan(o.interval_s))) {
        /* CodeCarbon's run totals: no series for these to act on */
        jci_diag_set(d, JC_ERR_USAGE, "%s is CodeCarbon's emissions.csv (run totals, no power series): --scope, "
                     "--gap, --idle-w and --interval have no effect", path);
        st = misuse(usage, d);
    } else if (!st) {
        st = jc_measurements_load(path, &in->loaded, d);
        s->ms = in->loaded;
    }
    if (!st && !isnan(row) && row > (double)s->ms->n) {
        jci_diag_set(d, JC_ERR_USAGE, "--row %g: %s has %zu data row%s", row, path, s->ms->n,
                     s->ms->n == 1 ? "" : "s");
        st = misuse(usage, d);
    }
    if (st) {
        jc_calib_source_free(s);
        return st;
    }
    s->row = &s->ms->rows[isnan(row) ? s->ms->n - 1 : (size_t)row - 1];
    if (s->row->job[0]) beside(s->job_path, sizeof s->job_path, path, s->row->job);
    if (s->row->model[0]) beside(s->model_path, sizeof s->model_path, path, s->row->model);
    *out = s;
    return JC_OK;
}

void jc_calib_source_free(jc_calib_source *s)
{
    if (!s) return;
    src_int *in = s->internal_;
    if (in) {
        jc_measurements_free(in->loaded);
        jc_trace_free(in->tr);
        free(in);
    }
    free(s);
}

jc_status jc_calib_source_device(const jc_calib_source *s, const jc_hwdb *db, const char **device,
                                 int *usage, jc_diag *d)
{
    if (usage) *usage = 0;
    const jc_measurement *m = s->row;
    if (!m->device[0]) {
        jci_diag_set(d, JC_ERR_USAGE, "%s%s%.0d names no device: give --device ID", s->path,
                     m->line ? ":" : "", m->line);
        return misuse(usage, d);
    }
    const jc_device *dv = NULL;
    const jc_host *hv = NULL;
    jc_diag hd;
    if (jc_hwdb_hardware(db, m->device, &dv, &hv, &hd))
        return jci_diag_set(d, hd.status, "%s%s%.0d: device '%s' of the measurement: %s; give --device ID",
                            s->path, m->line ? ":" : "", m->line, m->device, hd.msg);
    *device = m->device;
    return JC_OK;
}

static jc_range one(double v)
{
    jc_range r;
    r.low = r.central = r.high = v;
    return r;
}

/* The power fit of a trace (calibrate TRACE): the device's model in the
 * database and the run's utilisations on the model's scale over the
 * trace's active window (the job's FLOPs and bytes over G x peak x T and
 * G x bandwidth x T), then jci_trace_power_fit. */
static jc_status fit_power(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                           const jc_calib_source *src, jc_calibration *cal, jc_diag *d)
{
    jc_power_fit *f = &cal->power;
    const jc_trace *t = src->trace;
    f->pj_byte_note =
             "the joules-per-op device energy is e_flop x FLOPs + e_byte x bytes (+ idle) and one run gives one "
             "energy, so the two trade off along one line; the trace's memory utilisation is a time share, not bytes "
             "per sample, and the power model's memory term is not additive in energy (1 - exp(-(k_c u_c + k_m u_m))), "
             "so one trace gives no unique share of the energy to the bytes (two runs of different bytes per FLOP "
             "would)";
    jc_job j = *job;
    j.utilization = cal->fit_util ? cal->util_after : NAN;
    j.method = JC_METHOD_ROOFLINE;
    j.per_node = 0;
    if (isnan(j.count) && !j.host && src->row->devices >= 1) j.count = src->row->devices;
    jc_estimate *e = NULL;
    jc_status st = jc_estimate_run(&j, an, db, &e, d);
    if (st) return st;
    const jc_device *dev = e->device;
    jci_power_model pm;
    if ((st = jci_power_model_resolve(db, dev, &pm, d))) {
        jc_estimate_free(e);
        return st;
    }
    pm.idle_w = one(dev->idle_w.present ? dev->idle_w.value : NAN);
    pm.tdp_w = one(dev->tdp_w.present ? dev->tdp_w.value : NAN);
    double T = t->active_s[JC_TRACE_DEVICE], G = e->devices;
    const jc_sourced *pk = jci_device_peak(dev, e->prec, jci_runtime_fastest_kernels(j.runtime, j.mode == JC_MODE_TRAINING),
                                           NULL);
    double uc = pk->present && T > 0 ? e->flops_total / (G * pk->value * 1e12 * T) : NAN;
    double um = dev->memory_bw_gbs.present && T > 0 ? e->bytes_total / (G * dev->memory_bw_gbs.value * 1e9 * T) : NAN;
    jc_estimate_free(e);
    jci_trace_power_fit(t, &pm, uc, um, f);
    snprintf(f->detail, sizeof f->detail, "%.250s; %zu samples with utilisation (%zu at 0 %%), fit residual %.4g W RMS",
             src->ms->detail ? src->ms->detail : src->path, f->samples, f->idle_samples, f->rms_w);
    return JC_OK;
}

/* Writes the layer to res->out_path (and the power layer to
 * res->power_path when set), then opens the database with them. */
static jc_status write_layers(const jc_calib_result *res, const jc_calib_source *src, jc_calib_reopen_fn reopen,
                              void *ctx, jc_hwdb **after, jc_diag *d)
{
    const char *paths[2] = {res->out_path, res->power_path};
    size_t n = res->power_path[0] ? 2 : 1;
    for (size_t i = 0; i < n; i++) {
        FILE *f = fopen(paths[i], "w");
        if (!f) return jci_diag_set(d, JC_ERR_IO, "%s: cannot write: %s", paths[i], strerror(errno));
        const char *when = src->row->date[0] ? src->row->date : res->date;
        jc_status st = i ? jc_calibration_write_power_yaml(&res->cal, when, f, d)
                         : jc_calibration_write_yaml(&res->cal, src->ms, src->row, res->date, f, d);
        if (st) {
            fclose(f);
            return st;
        }
        if (fclose(f)) return jci_diag_set(d, JC_ERR_IO, "%s: write failed: %s", paths[i], strerror(errno));
    }
    return reopen(ctx, paths, n, after, d);
}

/* OUT.yaml -> OUT.power.yaml (OUT -> OUT.power.yaml). */
static void power_path(char *dst, size_t cap, const char *out)
{
    size_t n = strlen(out);
    if (n > 5 && !strcmp(out + n - 5, ".yaml")) n -= 5;
    else if (n > 4 && !strcmp(out + n - 4, ".yml")) n -= 4;
    snprintf(dst, cap, "%.*s.power.yaml", (int)n, out);
}

jc_status jc_calibrate_run(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                           const jc_calib_source *src, const char *out_path, const char *date,
                           jc_calib_reopen_fn reopen, void *ctx, jc_calib_result *res, jc_diag *d)
{
    if (!res || !src || !out_path || !*out_path || !reopen)
        return jci_diag_set(d, JC_ERR_USAGE, "calibrate: give the override layer to write (out)");
    if (date && !(strlen(date) == 10 && jci_date_valid(date, 10, NULL)))   /* on input, not in the layer */
        return jci_diag_set(d, JC_ERR_USAGE, "calibrate: --date '%s' is not a date YYYY-MM-DD (a year 1800-2100, "
                            "a month 1-12, a day its month has)", date);
    memset(res, 0, sizeof *res);
    res->src = src;
    /* the layer (and its power layer) onto a file this run reads: refused */
    const char *inputs[] = {src->path, src->job_path, src->model_path,
                            an && an->model ? an->model->path : NULL, job ? job->hf_config : NULL};
    char pw[sizeof res->power_path];
    power_path(pw, sizeof pw, out_path);
    jc_status sti = jci_output_not_input(out_path, "out", inputs, sizeof inputs / sizeof inputs[0], db, d);
    if (!sti && src->trace) sti = jci_output_not_input(pw, "out (its power layer)", inputs, 5, db, d);
    if (sti) return sti;
    snprintf(res->out_path, sizeof res->out_path, "%s", out_path);
    jc_status st = jc_calibrate(job, an, db, src->row, &res->cal, d);
    if (st) return st;
    if (date) snprintf(res->date, sizeof res->date, "%s", date);
    else if ((st = jc_utc_timestamp(res->date, sizeof res->date, 1, d))) return st;
    if (src->trace && (st = fit_power(job, an, db, src, &res->cal, d))) return st;
    if (res->cal.power.fitted) power_path(res->power_path, sizeof res->power_path, out_path);
    /* written and loaded back the way estimate --hwdb will */
    jc_hwdb *after = NULL;
    st = write_layers(res, src, reopen, ctx, &after, d);
    if (!st) st = jc_calibrate_check(job, an, after, src->row, &res->after, d);
    jc_calibration *c = &res->cal;
    if (!st && c->fit_pj && c->power.fitted && c->power.fit_idle && isfinite(res->after.device_kwh_jpo)) {
        /* the fitted idle power moved the joules-per-op idle floor: the
         * energy per FLOP (linear in it) is solved again with the layer */
        double F = NAN;
        jc_estimate *e = NULL;
        jc_job j = *job;
        if (isnan(j.count) && !j.host && src->row->devices >= 1) j.count = src->row->devices;
        j.method = JC_METHOD_JOULES_PER_OP;
        j.per_node = 0;
        if (!(st = jc_estimate_run(&j, an, after, &e, d))) F = e->flops_total;
        jc_estimate_free(e);
        double pj = c->pj_after + (c->meas_device_kwh - res->after.device_kwh_jpo) * JCI_J_PER_KWH / F * 1e12;
        if (!st && F > 0 && pj > 0) {
            c->pj_after = pj;
            jc_hwdb_free(after);
            after = NULL;
            st = write_layers(res, src, reopen, ctx, &after, d);
            if (!st) st = jc_calibrate_check(job, an, after, src->row, &res->after, d);
        }
    }
    jc_hwdb_free(after);
    return st;
}

/* ---- calibrate's own options ------------------------------------------------ */

void jc_calibrate_opts_init(jc_calibrate_opts *o)
{
    memset(o, 0, sizeof *o);
    o->row = NAN;
}

/* jc_calibrate_opts_set: src/workflows/cmd_opts.c, the table of cmd_opts.def. */

jc_status jc_calibrate_opts_check(const jc_calibrate_opts *o, jc_job *job, jc_trace_opts *topts, int *trace_opt,
                                  jc_diag *d)
{
    if (!o || !job || !topts || !trace_opt) return jci_diag_set(d, JC_ERR_USAGE, "jc_calibrate_opts_check: NULL argument");
    if (!o->measurements)
        return jci_diag_set(d, JC_ERR_USAGE, "give the measurement file (MEASUREMENTS.csv or a power trace; "
                            "the key measurements)");
    if (!o->out) return jci_diag_set(d, JC_ERR_USAGE, "give --out FILE.yaml: the override layer to write");
    if (job->measured)
        return jci_diag_set(d, JC_ERR_USAGE, "--measured is for estimate: give the trace itself as calibrate's "
                            "measurement file");
    jc_status st = jc_trace_opts_from_job(job, topts, trace_opt, d);
    if (!st) jc_trace_job_clear(job);   /* read here, not by the estimates of the fit */
    return st;
}
