/*
 * cmd_calibrate.c (cli) - `joulecast calibrate MEASUREMENTS.csv [JOB.yaml]
 * [MODEL.onnx] [estimate options] --out FILE.yaml [--row N] [--date D]`:
 * fits the device's effective utilisation and energy per FLOP to a
 * measured run (CodeCarbon's emissions.csv or the simple CSV form),
 * writes them as an hwdb override layer, loads that layer back (so a file
 * that `estimate --hwdb` would refuse is never left unnoticed) and prints
 * the prediction error before and after.  The fit is src/workflows/calibrate.c.
 */
#include "cli/workflow.h"
#include "joulecast/trace.h"
#include "joulecast/calibrate.h"
#include "joulecast/hwdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cal_cli {
    jc_calibrate_opts o;     /* calibrate's own options, parsed by the library */
    jobopts *c;
    jc_trace_opts topts;     /* a power trace's reading options */
    int trace_opt;           /* a trace option was given */
} cal_cli;

/* out, row, date: jc_calibrate_opts_set (jobopts applies --json). */
static jc_status set_lib(void *ctx, const char *key, const char *val, jc_diag *d)
{
    cal_cli *k = ctx;
    return jc_calibrate_opts_set(&k->o, key, val, d);
}

/* The rows: out, row and date are the library's (jci_command_opt_keys,
 * parsed by jc_calibrate_opts_set), then --json (schema
 * joulecast-calibrate/1). */
const jo_spec calibrate_spec = {"calibrate", JO_TAKES_LIB | JO_TAKES_JSON, set_lib, NULL, 0};

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int positional(void *ctx, const char *a)
{
    cal_cli *k = ctx;
    if (!ends_with(a, ".onnx") && strcmp(a, "-") && (!k->o.measurements || !strcmp(k->o.measurements, a))) {
        k->o.measurements = a;   /* the measurement: a CSV of totals or a power trace */
        return 0;
    }
    if (k->c->rs.model && strcmp(k->c->rs.model, a))
        return cli_usage("calibrate", "one model at a time ('%s' and '%s')", k->c->rs.model, a);
    k->c->rs.model = a;
    return 0;
}

static void pct(char *buf, size_t cap, double e)
{
    if (isnan(e)) snprintf(buf, cap, "n/a");
    else snprintf(buf, cap, "%+.1f%%", fabs(e) < 5e-4 ? 0.0 : 100 * e);   /* no "-0.0%" */
}

static void row(const char *label, double meas, double b, double eb, double a, double ea)
{
    char p1[32], p2[32];
    pct(p1, sizeof p1, eb);
    pct(p2, sizeof p2, ea);
    printf("  %-36s %10s %10s %8s %10s %8s\n", label, CLI_NUM(meas), CLI_NUM(b), p1, CLI_NUM(a), p2);
}

/* The written layer on top of the command line's --hwdb layers. */
typedef struct reopen_ctx {
    jobopts *c;
    int reported;               /* cli_hwdb_open printed the error */
} reopen_ctx;

static jc_status reopen(void *ctx, const char *const *layer, size_t n, jc_hwdb **db, jc_diag *d)
{
    reopen_ctx *x = ctx;
    const jci_reqset *rs = &x->c->rs;
    const char **layers = calloc(rs->n_layers + n + 1, sizeof *layers);
    if (!layers) {   /* the error printed here, as cli_hwdb_open's */
        fprintf(stderr, "joulecast: calibrate: out of memory\n");
        x->reported = 1;
        return d->status = JC_ERR_NOMEM;
    }
    for (size_t i = 0; i < rs->n_layers; i++) layers[i] = rs->layers[i];
    for (size_t i = 0; i < n; i++) layers[rs->n_layers + i] = layer[i];
    int rc = cli_hwdb_open(layers, rs->n_layers + n, db);
    free(layers);
    if (!rc) return JC_OK;
    x->reported = 1;
    d->status = (jc_status)rc;
    return (jc_status)rc;
}

/* A library failure printed the CLI's way: with the usage hint when it is
 * a misuse of the options. */
static int fail(const jc_diag *d, int usage)
{
    return usage ? cli_usage("calibrate", "%s", d->msg) : cli_fail(d);
}


/* A trace's power fit, before -> after (nothing for a measurement CSV). */
static void print_power(const jc_power_fit *p)
{
    char a[32], b[32];
    if (!p->attempted) return;
    if (!p->fitted) {
        printf("power      activity not fitted: %s\n", p->note);
    } else {
        printf("power      fitted to %zu device samples (%s), residual %s W RMS (the database's model: %s W RMS)\n",
               p->samples, p->fit_km ? "power against compute and memory utilisation" : "power against utilisation",
               CLI_NUM(p->rms_w), jc_format_number(a, sizeof a, p->rms_before_w));
        if (p->fit_idle)
            printf("           device idle_w %s -> %s W (mean of the %zu samples at 0 %% utilisation)\n",
                   jc_format_number(a, sizeof a, p->idle_before), CLI_NUM(p->idle_after), p->idle_samples);
        else
            printf("           device idle_w not fitted: %s\n", p->idle_note);
        printf("           %s %s -> %s (%s +- %s on the trace's utilisation; its mean %s, the run's FLOP/s "
               "over peak %s)\n", p->kc_id, CLI_NUM(p->kc_before), CLI_NUM(p->kc_after), CLI_NUM(p->kc_trace), CLI_NUM(p->kc_trace_se), CLI_NUM(p->u_mean),
               CLI_NUM(p->uc_run));
        if (p->fit_km)
            printf("           %s %s -> %s (%s +- %s on the trace's memory utilisation; its mean %s, the "
                   "run's bytes/s over bandwidth %s)\n", p->km_id, CLI_NUM(p->km_before), CLI_NUM(p->km_after), CLI_NUM(p->km_trace),
                   CLI_NUM(p->km_trace_se), CLI_NUM(p->um_mean), CLI_NUM(p->um_run));
        else
            printf("           %s not fitted: %s\n", p->km_id, p->km_note);
    }
    printf("           energy per byte not fitted: %s\n", p->pj_byte_note ? p->pj_byte_note : jc_format_number(b, sizeof b, NAN));
}

static void print_text(const jc_calib_result *r)
{
    const jc_calibration *cal = &r->cal;
    const jc_calib_check *ac = &r->after;
    const jc_measurements *ms = r->src->ms;
    const jc_measurement *mr = r->src->row;
    if (ms->detail)
        printf("joulecast calibrate: %s\n", ms->detail);
    else
        printf("joulecast calibrate: %s line %d (%s%s%s)\n", r->src->path, mr->line,
               !strcmp(ms->format, "codecarbon") ? "CodeCarbon emissions.csv" : "measurement CSV",
               mr->date[0] ? ", run of " : "", mr->date);
    printf("run        %s x %s, %s, %s\n", CLI_NUM(cal->devices), cal->device_id, jc_mode_name(cal->mode),
           jc_precision_name(cal->precision));
    printf("measured   wall time %s h, device energy %s kWh (IT side%s)\n", CLI_NUM(cal->meas_hours),
           CLI_NUM(cal->meas_device_kwh), isnan(mr->pue) ? "" : ", the tool's PUE removed");
    printf("fitted     utilization.%s %s -> %s (to the measured %s, roofline method)\n",
           jc_mode_name(cal->mode), CLI_NUM(cal->util_before), CLI_NUM(cal->util_after),
           !strcmp(cal->util_from, "duration") ? "wall time" : "device energy");
    if (cal->fit_pj)
        printf("           energy.pj_per_flop.%s %s -> %s (to the measured device energy, joules-per-op method)\n",
               jc_precision_name(cal->precision), CLI_NUM(cal->pj_before), CLI_NUM(cal->pj_after));
    else
        printf("           energy per FLOP not fitted: %s\n", cal->pj_note);
    print_power(&cal->power);
    if (r->power_path[0])
        printf("written    %s and %s (use them with: joulecast estimate --hwdb %s --hwdb %s ...)\n\n", r->out_path,
               r->power_path, r->out_path, r->power_path);
    else
        printf("written    %s (use it with: joulecast estimate --hwdb %s ...)\n\n", r->out_path, r->out_path);
    printf("  %-36s %10s %10s %8s %10s %8s\n", "prediction of the measured run", "measured", "before",
           "error", "after", "error");
    row("wall time, h", cal->meas_hours, cal->before.hours, cal->before.err_hours, ac->hours, ac->err_hours);
    row("device energy, kWh (roofline)", cal->meas_device_kwh, cal->before.device_kwh, cal->before.err_kwh,
        ac->device_kwh, ac->err_kwh);
    row("device energy, kWh (joules-per-op)", cal->meas_device_kwh, cal->before.device_kwh_jpo,
        cal->before.err_kwh_jpo, ac->device_kwh_jpo, ac->err_kwh_jpo);
}

int cmd_calibrate(int argc, char **argv)
{
    cal_cli k;
    jobopts c;
    memset(&k, 0, sizeof k);
    jc_calibrate_opts_init(&k.o);
    k.c = &c;
    jo_init_spec(&c, &calibrate_spec, NULL, &k);
    jc_trace_opts_init(&k.topts);
    jc_calib_source *src = NULL;
    jc_prepared *p = NULL;
    jc_hwdb *db = NULL;
    jc_diag d;
    int rc = 0, usage = 0;

    if ((rc = jo_parse(&c, argc, argv, positional, &k))) goto out;
    /* measurements and out given, trace keys to the trace options
     * (--trace-format, --scope, --gap, --idle-w, --interval) */
    if (jc_calibrate_opts_check(&k.o, &c.job, &k.topts, &k.trace_opt, &d)) {
        rc = cli_usage("calibrate", "%s", d.msg);
        goto out;
    }
    const char *csv = k.o.measurements;
    if (jc_calib_source_open(csv, &k.topts, k.trace_opt, k.o.row, &src, &usage, &d)) {
        rc = fail(&d, usage);
        goto out;
    }
    if (src->trace) {
        const jc_trace *tr = src->trace;
        for (size_t i = 0; i < tr->n_bad && i < JC_TRACE_MAX_ISSUES; i++)
            fprintf(stderr, "joulecast: warning: %s:%d: %s (row not used)\n", csv, tr->bad[i].line, tr->bad[i].msg);
        for (size_t i = 0; i < tr->n_gaps && i < JC_TRACE_MAX_ISSUES; i++)
            fprintf(stderr, "joulecast: warning: %s:%d: %s\n", csv, tr->gaps[i].line, tr->gaps[i].msg);
    }
    /* the row's job file, beneath the command line (which still wins) */
    if (src->job_path[0] && !c.jf && (rc = jo_apply_jobfile(&c, src->job_path))) goto out;
    if (src->model_path[0] && !c.rs.model) c.rs.model = src->model_path;
    if ((rc = cli_hwdb_open(c.rs.layers, c.rs.n_layers, &db))) goto out;
    if (!c.job.device && !c.job.host && jc_calib_source_device(src, db, &c.job.device, &usage, &d)) {
        rc = fail(&d, usage);
        goto out;
    }
    /* the row's devices before the count: a data-parallel training job is
     * counted at one device's batch (jc_job_device_batch), as estimate counts it */
    if (isnan(c.job.count) && !c.job.host && src->row->devices >= 1) c.job.count = src->row->devices;
    if ((rc = jo_prepare(&c, &p))) goto out;

    jc_calib_result res;
    reopen_ctx rx = {&c, 0};
    if (jc_calibrate_run(&c.job, p->analysis, db, src, k.o.out, k.o.date, reopen, &rx, &res, &d)) {
        rc = rx.reported ? (int)d.status : cli_fail(&d);
        goto out;
    }
    if (c.out.json) {
        if ((rc = cli_emit_json(jc_report_calibrate_json(&res)))) goto out;
    } else {
        print_text(&res);
    }
out:
    jc_hwdb_free(db);
    jc_prepared_free(p);
    jc_calib_source_free(src);
    jo_free(&c);
    return rc;
}
