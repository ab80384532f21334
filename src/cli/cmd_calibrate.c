/*
 * cmd_calibrate.c - `joulecast calibrate MEASUREMENTS.csv [JOB.yaml]
 * [MODEL.onnx] [estimate options] --out FILE.yaml [--row N] [--date D]`:
 * fits the device's effective utilisation and energy per FLOP to a
 * measured run (CodeCarbon's emissions.csv or the simple CSV form),
 * writes them as an hwdb override layer, loads that layer back (so a file
 * that `estimate --hwdb` would refuse is never left unnoticed) and prints
 * the prediction error before and after.  The fit is src/workflows/calibrate.c.
 */
#include "cli/workflow.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cal_cli {
    const char *csv, *out, *date;
    double row;              /* 1-based data row; NAN: the last */
    jobopts *c;
    jc_trace_opts topts;     /* a power trace's reading options */
    int trace_opt;           /* a trace option was given */
} cal_cli;

enum { CA_OUT = 1, CA_ROW, CA_DATE, CA_TRACE };

static const jo_opt opts[] = {
    {"out", JO_OUT, CA_OUT, "FILE", "the hwdb override YAML to write (required)"},
    {"row", JO_OUT, CA_ROW, "N", "the measurement's data row, 1 = first (default: the last)"},
    {"date", JO_OUT, CA_DATE, "YYYY-MM-DD", "date of the measurement when the file has none"},
    {"gap", JO_OUT, CA_TRACE, "S", "trace: intervals longer than S seconds are gaps (default 5 x median)"},
    {"idle-w", JO_OUT, CA_TRACE, "W", "trace: samples at or below W are idle"},
    {"interval", JO_OUT, CA_TRACE, "S", "trace: seconds between samples when it has no timestamps"},
};
#define N_OPTS (sizeof opts / sizeof opts[0])

void help_calibrate(FILE *f)
{
    fprintf(f, "usage: joulecast calibrate MEASUREMENTS.csv|TRACE [JOB.yaml] [MODEL.onnx] [estimate options]\n"
               "                           --out FILE.yaml [--row N] [--date YYYY-MM-DD] [trace options]\n\n"
               "Fits the effective utilisation (MFU) of the device and workload class to a\n"
               "measured run: the value whose roofline prediction gives the measured wall\n"
               "time (or, without a duration, the measured device energy); with both, also\n"
               "the device's energy per FLOP at the run's precision (joules-per-op method).\n"
               "Writes them as an hwdb override layer, every value `measured:` with the\n"
               "file, row and date; `joulecast estimate --hwdb FILE.yaml` then uses them.\n"
               "Prints the prediction error before and after.\n\n"
               "Measurements: CodeCarbon's emissions.csv (duration, gpu_energy or cpu_energy,\n"
               "gpu_count, gpu_model, pue; energies are divided by pue, which CodeCarbon\n"
               "multiplies in), or a CSV with columns among job, model, device, count,\n"
               "hours, device_kwh, avg_watts, date.  The job options describe the measured\n"
               "run (model, batch, samples, epochs, mode); the file's device and count are\n"
               "used when the options give none.\n\n"
               "A power trace (nvidia-smi, dcgmi, Carbontracker, PowerJoular, Scaphandre or a\n"
               "plain timestamp,watts CSV; joulecast help trace) is integrated first: its\n"
               "devices' active window (the idle ends every device shares removed) gives the\n"
               "duration and the device energy; the layer names the trace, its format and\n"
               "its time window.\n\n");
    jo_help(f, opts, N_OPTS);
    fprintf(f, "\nexample:\n"
               "  joulecast calibrate emissions.csv models/resnet50.onnx --train --batch 256 \\\n"
               "      --samples 1281167 --device a100 --out mylab.yaml\n"
               "  joulecast estimate models/resnet50.onnx --train ... --hwdb mylab.yaml\n");
}

static int apply_own(void *ctx, const jo_opt *o, const char *val, const char *where)
{
    cal_cli *k = ctx;
    switch (o->off) {
    case CA_OUT: k->out = val; return 0;
    case CA_ROW:
        if (!cli_parse_f64(val, &k->row) || k->row < 1 || k->row != floor(k->row))
            return cli_usage("calibrate", "%s: --row expects a whole number >= 1, got '%s'", where, val);
        return 0;
    case CA_DATE: k->date = val; return 0;
    case CA_TRACE: k->trace_opt = 1; return cli_trace_set(&k->topts, "calibrate", o->name, val);
    }
    return JC_ERR_INTERNAL;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int positional(void *ctx, const char *a)
{
    cal_cli *k = ctx;
    if (!ends_with(a, ".onnx") && strcmp(a, "-") && (!k->csv || !strcmp(k->csv, a))) {
        k->csv = a;   /* the measurement: a CSV of totals or a power trace */
        return 0;
    }
    if (k->c->model && strcmp(k->c->model, a))
        return cli_usage("calibrate", "one model at a time ('%s' and '%s')", k->c->model, a);
    k->c->model = a;
    return 0;
}

/* A path of the measurement file made relative to the file's folder. */
static void beside(char *dst, size_t cap, const char *csv, const char *p)
{
    const char *slash = strrchr(csv, '/');
    if (p[0] == '/' || !slash) snprintf(dst, cap, "%s", p);
    else snprintf(dst, cap, "%.*s/%s", (int)(slash - csv), csv, p);
}

static void pct(char *buf, size_t cap, double e)
{
    if (isnan(e)) snprintf(buf, cap, "n/a");
    else snprintf(buf, cap, "%+.1f%%", fabs(e) < 5e-4 ? 0.0 : 100 * e);   /* no "-0.0%" */
}

static void row(const char *label, double meas, double b, double eb, double a, double ea)
{
    char m[32], x[32], y[32], p1[32], p2[32];
    snprintf(m, sizeof m, isnan(meas) ? "n/a" : "%.4g", meas);
    snprintf(x, sizeof x, isnan(b) ? "n/a" : "%.4g", b);
    snprintf(y, sizeof y, isnan(a) ? "n/a" : "%.4g", a);
    pct(p1, sizeof p1, eb);
    pct(p2, sizeof p2, ea);
    printf("  %-36s %10s %10s %8s %10s %8s\n", label, m, x, p1, y, p2);
}

/* The measurement: a power trace (integrated; its warnings printed) or a
 * CSV of totals.  *ms is tms for a trace (not freed), else owned. */
static int load_measurement(cal_cli *kp, jobopts *cp, jc_measurements **msp, jc_measurements *tms,
                            jc_measurement *trow, jc_trace **trp)
{
    cal_cli *k = kp;
    jobopts *c = cp;
    jc_diag d;
    int rc;
    /* --trace-format and --scope are job keys (estimate --measured reads them too) */
    if (c->job.measured)
        return cli_usage("calibrate", "--measured is for estimate: give the trace itself as calibrate's measurement file");
    if (c->job.trace_format && (rc = cli_trace_set(&k->topts, "calibrate", "trace-format", c->job.trace_format)))
        return rc;
    if (c->job.trace_scope && (rc = cli_trace_set(&k->topts, "calibrate", "scope", c->job.trace_scope))) return rc;
    if (c->job.trace_format || c->job.trace_scope) {
        k->trace_opt = 1;
        c->job.trace_format = c->job.trace_scope = NULL;   /* read here, not by the estimates of the fit */
    }
    jc_trace_format tf = k->topts.format;
    if (tf == JC_TRACE_AUTO && jc_trace_detect(k->csv, &tf, &d)) return cli_fail(&d);
    if (tf != JC_TRACE_AUTO && tf != JC_TRACE_CODECARBON) {
        k->topts.format = tf;
        if (jc_trace_load(k->csv, &k->topts, trp, &d)) return cli_fail(&d);
        const jc_trace *tr = *trp;
        if (!tr->has_scope[JC_TRACE_DEVICE])
            return cli_usage("calibrate", "%s measured no device (scope %s): calibrate fits the devices; use it "
                             "with estimate --measured", k->csv, tr->has_scope[JC_TRACE_WALL] ? "wall" : "host");
        for (size_t i = 0; i < tr->n_bad && i < JC_TRACE_MAX_ISSUES; i++)
            fprintf(stderr, "joulecast: warning: %s:%d: %s (row not used)\n", k->csv, tr->bad[i].line, tr->bad[i].msg);
        for (size_t i = 0; i < tr->n_gaps && i < JC_TRACE_MAX_ISSUES; i++)
            fprintf(stderr, "joulecast: warning: %s:%d: %s\n", k->csv, tr->gaps[i].line, tr->gaps[i].msg);
        jc_trace_measurements(tr, tms, trow);
        *msp = tms;
        return 0;
    }
    if (k->trace_opt && tf != JC_TRACE_CODECARBON)
        return cli_usage("calibrate", "%s is not a power trace: --trace-format, --scope, --gap, --idle-w and "
                         "--interval have no effect", k->csv);
    if (jc_measurements_load(k->csv, msp, &d)) return cli_fail(&d);
    return 0;
}

int cmd_calibrate(int argc, char **argv)
{
    cal_cli k;
    jobopts c;
    memset(&k, 0, sizeof k);
    k.row = NAN;
    k.c = &c;
    jo_init(&c, "calibrate", opts, N_OPTS, apply_own, &k);
    jc_trace_opts_init(&k.topts);
    jc_measurements *ms = NULL, tms;
    jc_measurement trow;
    jc_trace *tr = NULL;
    jc_prepared *p = NULL;
    const jc_analysis *an = NULL;
    jc_hwdb *db = NULL, *after = NULL;
    jc_diag d;
    int rc = 0;
    char jobbuf[1024], modelbuf[1024], datebuf[16];

    if ((rc = jo_parse(&c, argc, argv, positional, &k))) goto out;
    if (!k.csv) { rc = cli_usage("calibrate", "give the measurement file (MEASUREMENTS.csv)"); goto out; }
    if (!k.out) { rc = cli_usage("calibrate", "give --out FILE.yaml: the override layer to write"); goto out; }
    if ((rc = load_measurement(&k, &c, &ms, &tms, &trow, &tr))) goto out;
    if (!isnan(k.row) && k.row > (double)ms->n) {
        rc = cli_usage("calibrate", "--row %g: %s has %zu data row%s", k.row, k.csv, ms->n, ms->n == 1 ? "" : "s");
        goto out;
    }
    const jc_measurement *mr = &ms->rows[isnan(k.row) ? ms->n - 1 : (size_t)k.row - 1];

    /* the row's job file, beneath the command line (which still wins) */
    if (mr->job[0] && !c.jf) {
        beside(jobbuf, sizeof jobbuf, k.csv, mr->job);
        if ((rc = jo_apply_jobfile(&c, jobbuf))) goto out;
    }
    if (mr->model[0] && !c.model) {
        beside(modelbuf, sizeof modelbuf, k.csv, mr->model);
        c.model = modelbuf;
    }
    if ((rc = cli_hwdb_open(c.layers, c.n_layers, &db))) goto out;
    if (!c.job.device && !c.job.host) {
        if (!mr->device[0]) {
            rc = cli_usage("calibrate", "%s%s%.0d names no device: give --device ID", k.csv, mr->line ? ":" : "",
                           mr->line);
            goto out;
        }
        const jc_device *dv = NULL;
        const jc_host *hv = NULL;
        if (jc_hwdb_hardware(db, mr->device, &dv, &hv, &d)) {
            fprintf(stderr, "joulecast: %s%s%.0d: device '%s' of the measurement: %s; give --device ID\n",
                    k.csv, mr->line ? ":" : "", mr->line, mr->device, d.msg);
            rc = d.status;
            goto out;
        }
        c.job.device = mr->device;
    }
    if ((rc = jo_prepare(&c, &p))) goto out;
    an = p->analysis;

    jc_calibration cal;
    if (jc_calibrate(&c.job, an, db, mr, &cal, &d)) { rc = cli_fail(&d); goto out; }

    /* write the layer, then load it back the way estimate --hwdb will */
    if (!k.date) {
        wf_timestamp(datebuf, sizeof datebuf, 1);
        k.date = datebuf;
    }
    FILE *f = fopen(k.out, "w");
    if (!f) {
        fprintf(stderr, "joulecast: %s: cannot write: %s\n", k.out, strerror(errno));
        rc = JC_ERR_IO;
        goto out;
    }
    jc_status st = jc_calibration_write_yaml(&cal, ms, mr, k.date, f, &d);
    if (st) { fclose(f); rc = cli_fail(&d); goto out; }
    if (fclose(f)) {
        fprintf(stderr, "joulecast: %s: write failed: %s\n", k.out, strerror(errno));
        rc = JC_ERR_IO;
        goto out;
    }
    {
        const char *layers[JO_MAX_LAYERS + 1];
        for (size_t i = 0; i < c.n_layers; i++) layers[i] = c.layers[i];
        layers[c.n_layers] = k.out;
        if ((rc = cli_hwdb_open(layers, c.n_layers + 1, &after))) goto out;
    }
    jc_calib_check ac;
    if (jc_calibrate_check(&c.job, an, after, mr, &ac, &d)) { rc = cli_fail(&d); goto out; }

    if (ms->detail)
        printf("joulecast calibrate: %s\n", ms->detail);
    else
        printf("joulecast calibrate: %s line %d (%s%s%s)\n", k.csv, mr->line,
               !strcmp(ms->format, "codecarbon") ? "CodeCarbon emissions.csv" : "measurement CSV",
               mr->date[0] ? ", run of " : "", mr->date);
    printf("run        %g x %s, %s, %s\n", cal.devices, cal.device_id, jc_mode_name(cal.mode),
           jc_precision_name(cal.precision));
    printf("measured   wall time %.4g h, device energy %.4g kWh (IT side%s)\n", cal.meas_hours,
           cal.meas_device_kwh, isnan(mr->pue) ? "" : ", the tool's PUE removed");
    printf("fitted     utilization.%s %.4g -> %.4g (to the measured %s, roofline method)\n",
           jc_mode_name(cal.mode), cal.util_before, cal.util_after,
           !strcmp(cal.util_from, "duration") ? "wall time" : "device energy");
    if (cal.fit_pj)
        printf("           energy.pj_per_flop.%s %.4g -> %.4g (to the measured device energy, joules-per-op method)\n",
               jc_precision_name(cal.precision), cal.pj_before, cal.pj_after);
    else
        printf("           energy per FLOP not fitted: %s\n", cal.pj_note);
    printf("written    %s (use it with: joulecast estimate --hwdb %s ...)\n\n", k.out, k.out);
    printf("  %-36s %10s %10s %8s %10s %8s\n", "prediction of the measured run", "measured", "before",
           "error", "after", "error");
    row("wall time, h", cal.meas_hours, cal.before.hours, cal.before.err_hours, ac.hours, ac.err_hours);
    row("device energy, kWh (roofline)", cal.meas_device_kwh, cal.before.device_kwh, cal.before.err_kwh,
        ac.device_kwh, ac.err_kwh);
    row("device energy, kWh (joules-per-op)", cal.meas_device_kwh, cal.before.device_kwh_jpo,
        cal.before.err_kwh_jpo, ac.device_kwh_jpo, ac.err_kwh_jpo);
out:
    jc_hwdb_free(after);
    jc_hwdb_free(db);
    jc_prepared_free(p);
    if (ms != &tms) jc_measurements_free(ms);
    jc_trace_free(tr);
    jo_free(&c);
    return rc;
}
