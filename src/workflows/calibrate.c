/*
 * calibrate.c - `joulecast calibrate`: fits the effective utilisation
 * (MFU) and the energy per FLOP of a device to a measured run, and writes
 * them as an hwdb override layer (docs/energy-model.md "Calibration").
 *
 * Three parts:
 *   jc_measurements_load()   reads a measurement CSV: CodeCarbon's
 *                            emissions.csv or the simple form (job/model,
 *                            device, hours, device kWh or average watts);
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
#include "base/jc_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CSV_BYTES ((size_t)64 << 20)
#define MAX_FIELDS 128

/* ---- CSV --------------------------------------------------------------------- */

typedef struct ms_internal { jci_arena *a; } ms_internal;

/* Splits the next record of text at *pos into fields (RFC 4180: quoted
 * fields may hold commas, doubled quotes and line breaks).  Fields are
 * NUL-terminated in place.  Returns the field count, 0 at the end, -1 on
 * an unterminated quote or too many fields.  *line advances. */
static int record(char *text, size_t len, size_t *pos, char **fields, int *line)
{
    size_t p = *pos;
    if (p >= len) return 0;
    int n = 0;
    for (;;) {
        if (n >= MAX_FIELDS) return -1;
        char *w = text + p;
        fields[n++] = w;
        if (p < len && text[p] == '"') {
            p++;
            for (;;) {
                if (p >= len) return -1;
                if (text[p] == '"') {
                    if (p + 1 < len && text[p + 1] == '"') { *w++ = '"'; p += 2; continue; }
                    p++;
                    break;
                }
                if (text[p] == '\n') (*line)++;
                *w++ = text[p++];
            }
            /* anything up to the separator after the closing quote is kept */
            while (p < len && text[p] != ',' && text[p] != '\n' && text[p] != '\r') *w++ = text[p++];
        } else {
            while (p < len && text[p] != ',' && text[p] != '\n' && text[p] != '\r') w++, p++;
        }
        char sep = p < len ? text[p] : '\n';
        *w = 0;
        if (sep == ',') { p++; continue; }
        if (sep == '\r') { p++; if (p < len && text[p] == '\n') p++; }
        else if (p < len) p++;
        (*line)++;
        break;
    }
    *pos = p;
    return n;
}

static int col_of(char **hdr, int nh, const char *name)
{
    for (int i = 0; i < nh; i++)
        if (!strcmp(hdr[i], name)) return i;
    return -1;
}

/* Parses field `c` of a row as a number: NAN when the column is absent or
 * the field empty; -1 return on a malformed number. */
static int num_at(char **f, int nf, int c, double *out)
{
    *out = NAN;
    if (c < 0 || c >= nf) return 0;
    const char *s = f[c];
    while (*s == ' ') s++;
    if (!*s) return 0;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (*end == ' ') end++;
    if (errno || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

static void str_at(char *dst, size_t cap, char **f, int nf, int c)
{
    snprintf(dst, cap, "%s", c >= 0 && c < nf ? f[c] : "");
}

/* "2024-05-31T10:39:13" -> "2024-05-31" when it has that form. */
static void date_of(char *dst, const char *s)
{
    dst[0] = 0;
    if (strlen(s) < 10) return;
    for (int i = 0; i < 10; i++) {
        int want_dash = i == 4 || i == 7;
        if (want_dash ? s[i] != '-' : !isdigit((unsigned char)s[i])) return;
    }
    memcpy(dst, s, 10);
    dst[10] = 0;
}

static const char *const simple_cols[] = {"job", "model", "device", "count", "hours", "device_kwh",
                                          "avg_watts", "date"};

/* One data row (line `at`) of a measurements file into *m: CodeCarbon's
 * columns (cc) or the simple form's. */
static jc_status measurement_row(const char *path, int at, char **hdr, int nh, char **fl, int nf,
                                 int cc, jc_measurement *m, jc_diag *d)
{
    memset(m, 0, sizeof *m);
    m->line = at;
    m->duration_s = m->device_kwh = m->cpu_kwh = m->ram_kwh = m->total_kwh = NAN;
    m->pue = m->avg_power_w = m->devices = NAN;
    const char *bad = NULL;
#define NUM(col, dst) do { if (!bad && num_at(fl, nf, col_of(hdr, nh, col), dst)) bad = col; } while (0)
    if (cc) {
        char ts[64];
        str_at(ts, sizeof ts, fl, nf, col_of(hdr, nh, "timestamp"));
        date_of(m->date, ts);
        double gpu = NAN, cpu = NAN, ram = NAN, tot = NAN;
        NUM("duration", &m->duration_s);
        NUM("gpu_energy", &gpu);
        NUM("cpu_energy", &cpu);
        NUM("ram_energy", &ram);
        NUM("energy_consumed", &tot);
        NUM("pue", &m->pue);
        NUM("gpu_count", &m->devices);
        if (!bad && !(m->pue > 0)) m->pue = NAN;
        double p = isnan(m->pue) ? 1 : m->pue;   /* CodeCarbon multiplies energies by its pue */
        m->device_kwh = gpu / p;
        m->cpu_kwh = cpu / p;
        m->ram_kwh = ram / p;
        m->total_kwh = tot / p;
        char g[sizeof m->device];
        str_at(g, sizeof g, fl, nf, col_of(hdr, nh, "gpu_model"));
        /* "4 x NVIDIA A100-SXM4-40GB" -> "NVIDIA A100-SXM4-40GB" */
        const char *q = g;
        while (isdigit((unsigned char)*q)) q++;
        if (q != g && !strncmp(q, " x ", 3)) q += 3;
        else q = g;
        snprintf(m->device, sizeof m->device, "%s", q);
    } else {
        double hours = NAN, kwh = NAN;
        NUM("hours", &hours);
        NUM("device_kwh", &kwh);
        NUM("avg_watts", &m->avg_power_w);
        NUM("count", &m->devices);
        str_at(m->job, sizeof m->job, fl, nf, col_of(hdr, nh, "job"));
        str_at(m->model, sizeof m->model, fl, nf, col_of(hdr, nh, "model"));
        str_at(m->device, sizeof m->device, fl, nf, col_of(hdr, nh, "device"));
        char dt[64];
        str_at(dt, sizeof dt, fl, nf, col_of(hdr, nh, "date"));
        date_of(m->date, dt);
        if (!bad && dt[0] && !m->date[0]) bad = "date";
        m->duration_s = hours * 3600;
        m->device_kwh = kwh;
        if (isnan(kwh) && !isnan(m->avg_power_w) && !isnan(hours))
            m->device_kwh = m->avg_power_w * (isnan(m->devices) ? 1 : m->devices) * hours / 1000;
    }
#undef NUM
    if (bad) {
        return jci_diag_set(d, JC_ERR_USAGE, "%s:%d: column '%s': not a number%s", path, at, bad,
                            !strcmp(bad, "date") ? " (dates are YYYY-MM-DD)" : "");
    }
    if ((!isnan(m->duration_s) && !(m->duration_s > 0)) || (!isnan(m->device_kwh) && m->device_kwh < 0) ||
        (!isnan(m->devices) && !(m->devices >= 1 && m->devices == floor(m->devices)))) {
        return jci_diag_set(d, JC_ERR_USAGE, "%s:%d: a duration must be > 0, an energy >= 0 and a device "
                            "count a whole number >= 1", path, at);
    }
    /* the physical range of a measurement (as for traces, docs/traces.md):
     * at most 50 kW per device on average, at most 10 years */
    double n = isnan(m->devices) ? 1 : m->devices;
    if (!isnan(m->duration_s) && m->duration_s > 3.2e8)
        return jci_diag_set(d, JC_ERR_RANGE, "%s:%d: a duration of %g s is more than 10 years: not one run", path,
                            at, m->duration_s);
    if (!isnan(m->duration_s) && !isnan(m->device_kwh) && m->device_kwh * 3.6e6 / m->duration_s / n > 5e4)
        return jci_diag_set(d, JC_ERR_RANGE, "%s:%d: %g kWh over %g s is more than 50 kW per device: not a "
                            "measurement", path, at, m->device_kwh, m->duration_s);
    return JC_OK;
}

jc_status jc_measurements_load(const char *path, jc_measurements **out, jc_diag *d)
{
    jci_diag_clear(d);
    if (!path || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_measurements_load: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return jci_diag_set(d, JC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    jci_arena *a = jci_arena_new();
    char *text = NULL;
    size_t len = 0;
    jc_status st = JC_OK;
    if (!a) { fclose(f); return jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); }
    switch (jci_read_stream(f, MAX_CSV_BYTES, &text, &len)) {
    case JCI_READ_OK: break;
    case JCI_READ_TOO_BIG: st = jci_diag_set(d, JC_ERR_USAGE, "%s: larger than 64 MiB", path); break;
    case JCI_READ_NOMEM: st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); break;
    case JCI_READ_IO: st = jci_diag_set(d, JC_ERR_IO, "%s: read error", path); break;
    }
    fclose(f);
    if (st) goto fail;
    size_t pos = 0;
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) pos = 3;   /* UTF-8 byte-order mark */

    char *hdr[MAX_FIELDS], *fl[MAX_FIELDS];
    int line = 1, hline = line;
    int nh = record(text, len, &pos, hdr, &line);
    if (nh <= 0) { st = jci_diag_set(d, JC_ERR_USAGE, "%s:1: no header line", path); goto fail; }
    /* the header's names are kept: copy them, the text is reused below */
    for (int i = 0; i < nh; i++) {
        char *c = jci_arena_strdup(a, hdr[i]);
        if (!c) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
        for (char *p = c; *p; p++) *p = (char)tolower((unsigned char)*p);
        while (*c == ' ') c++;
        hdr[i] = c;
    }
    int cc = col_of(hdr, nh, "duration") >= 0 && col_of(hdr, nh, "energy_consumed") >= 0;
    if (!cc) {
        for (int i = 0; i < nh; i++) {
            int ok = 0;
            for (size_t k = 0; k < sizeof simple_cols / sizeof simple_cols[0]; k++)
                ok |= !strcmp(hdr[i], simple_cols[k]);
            if (!ok) {
                st = jci_diag_set(d, JC_ERR_USAGE, "%s:%d: unknown column '%s': the file is neither CodeCarbon's "
                                 "emissions.csv (duration, energy_consumed, ...) nor the simple form (job, model, "
                                 "device, count, hours, device_kwh, avg_watts, date)", path, hline, hdr[i]);
                goto fail;
            }
        }
        if (col_of(hdr, nh, "device_kwh") < 0 && col_of(hdr, nh, "avg_watts") < 0 && col_of(hdr, nh, "hours") < 0) {
            st = jci_diag_set(d, JC_ERR_USAGE, "%s:%d: the simple form needs a device_kwh, avg_watts or hours column",
                             path, hline);
            goto fail;
        }
    }

    jc_measurements *ms = jci_arena_alloc(a, sizeof *ms);
    ms_internal *mi = jci_arena_alloc(a, sizeof *mi);
    if (!ms || !mi) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    mi->a = a;
    ms->internal_ = mi;
    ms->path = jci_arena_strdup(a, path);
    ms->format = cc ? "codecarbon" : "simple";
    size_t rcap = 0;
    for (;;) {
        int at = line;
        int nf = record(text, len, &pos, fl, &line);
        if (nf == 0) break;
        if (nf < 0) { st = jci_diag_set(d, JC_ERR_USAGE, "%s:%d: unterminated quote or too many fields", path, at); goto fail; }
        if (nf == 1 && !fl[0][0]) continue;   /* blank line */
        if (ms->n == rcap) {
            size_t nc = rcap ? rcap * 2 : 16;
            jc_measurement *nr = jci_arena_calloc(a, nc, sizeof *nr);
            if (!nr) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
            if (ms->n) memcpy(nr, ms->rows, ms->n * sizeof *nr);
            ms->rows = nr;
            rcap = nc;
        }
        jc_measurement *m = &ms->rows[ms->n];
        if ((st = measurement_row(path, at, hdr, nh, fl, nf, cc, m, d))) goto fail;
        ms->n++;
    }
    if (!ms->n) { st = jci_diag_set(d, JC_ERR_USAGE, "%s: no data row after the header", path); goto fail; }
    if (!ms->path) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    free(text);
    *out = ms;
    return JC_OK;
fail:
    free(text);
    jci_arena_free(a);
    return st;
}

void jc_measurements_free(jc_measurements *m)
{
    if (!m) return;
    ms_internal *mi = m->internal_;
    jci_arena_free(mi->a);
}

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

/* One roofline (or joules-per-op) run at utilisation u (NAN: the hwdb's). */
static jc_status trial(const jc_job *j0, const jc_analysis *an, const jc_hwdb *db, double u,
                       jc_method method, double *hours, double *kwh, double *flops, jc_diag *d)
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
    jc_estimate_free(e);
    return JC_OK;
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
    out->err_hours = rel(out->hours, m->duration_s / 3600);
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

    out->meas_hours = m->duration_s / 3600;
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
        return jci_diag_set(d, JC_ERR_RANGE, "calibrate: the measured %s %.6g %s is below the %.6g %s predicted at "
                           "full utilisation (1.0) of %g x %s: check the job (work, batch, device count) against "
                           "the run", what, target, unit, ghi, unit, out->devices, out->device_id);
    if (target > glo * (1 + 1e-12))
        return jci_diag_set(d, JC_ERR_RANGE, "calibrate: the measured %s %.6g %s is above the %.6g %s predicted at "
                           "a utilisation of 0.0001: check the job against the run", what, target, unit, glo, unit);
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
    double k1, F;
    if ((st = trial(&j, an, db, out->util_after, JC_METHOD_JOULES_PER_OP, NULL, &k1, &F, d))) return st;
    /* E(e) = E(e0) + (e - e0) F: linear in the energy per FLOP */
    double pj = pf->value + (out->meas_device_kwh - k1) * 3.6e6 / F * 1e12;
    out->pj_before = pf->value;
    if (!isfinite(pj)) {
        snprintf(out->pj_note, sizeof out->pj_note, "the measured device energy %.4g kWh gives an energy per "
                 "FLOP that is not finite: not fitted", out->meas_device_kwh);
        return JC_OK;
    }
    if (!(F > 0) || !(pj > 0)) {
        snprintf(out->pj_note, sizeof out->pj_note, "the measured device energy %.4g kWh is below the idle floor "
                 "and memory traffic the joules-per-op method predicts (%.4g kWh at %.4g pJ/FLOP): not fitted",
                 out->meas_device_kwh, k1, pf->value);
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
    char buf[1500], before[32];
    snprintf(before, sizeof before, isnan(p->idle_before) ? "n/a" : "%.4g W", p->idle_before);
    snprintf(buf, sizeof buf, "fitted by joulecast calibrate: the mean power of the %zu samples at 0 %% "
             "utilisation of %s; hwdb value before: %s", p->idle_samples, p->detail, before);
    fprintf(f, "    idle_w: {value: %.6g, source: calibration, measured: ", p->idle_after);
    jci_yaml_quote(f, buf);
    fprintf(f, "}\n");
}

jc_status jc_calibration_write_power_yaml(const jc_calibration *c, const char *date, FILE *f, jc_diag *d)
{
    jci_diag_clear(d);
    if (!c || !f) return jci_diag_set(d, JC_ERR_USAGE, "jc_calibration_write_power_yaml: NULL argument");
    const jc_power_fit *p = &c->power;
    char chk[11], buf[1500];
    date_of(chk, date ? date : "");
    if (!p->fitted) return jci_diag_set(d, JC_ERR_USAGE, "calibrate: no power coefficient was fitted");
    if (!chk[0]) return jci_diag_set(d, JC_ERR_USAGE, "calibrate: the power layer has no date; give --date YYYY-MM-DD");
    fprintf(f, "# joulecast %s calibration: the device power model fitted to a trace, an hwdb override layer\n"
               "# (docs/traces.md \"Power fit\").  Use it with the device layer beside it:\n"
               "# joulecast estimate --hwdb DEVICE_LAYER --hwdb THIS_FILE ...\n", JC_VERSION);
    fprintf(f, "schema: joulecast-hwdb/1\nsources:\n  calibration:\n    citation: ");
    snprintf(buf, sizeof buf, "joulecast calibrate: power against utilisation in %s", p->detail);
    jci_yaml_quote(f, buf);
    fprintf(f, "\n    date: \"%s\"\n    note: ", chk);
    snprintf(buf, sizeof buf, "%g x %s, %s, %s", c->devices, c->device_id, jc_mode_name(c->mode),
             jc_precision_name(c->precision));
    jci_yaml_quote(f, buf);
    fprintf(f, "\nconstants:\n");
    for (int i = 0; i < 2; i++) {
        if (i == 1 && !p->fit_km) break;
        double v = i ? p->km_after : p->kc_after, kt = i ? p->km_trace : p->kc_trace;
        double se = i ? p->km_trace_se : p->kc_trace_se, u = i ? p->um_mean : p->u_mean;
        double ur = i ? p->um_run : p->uc_run;
        snprintf(buf, sizeof buf, "fitted by joulecast calibrate (least squares, power against utilisation, "
                 "P = idle + (TDP - idle)(1 - exp(-(k_c u + k_m um))), TDP %.4g W) to %s: %.6g +- %.2g on the "
                 "trace's %s utilisation, x %.4g / %.4g (its mean over the active window / the run's %s on the "
                 "model's scale)%s; low/high: 2 standard errors; hwdb value before: %.4g; applies to every device of "
                 "this kind the layer is used with", p->tdp_w, p->detail, kt, se, i ? "memory" : "compute", u, ur,
                 i ? "bytes/s over bandwidth" : "FLOP/s over peak",
                 !i && !p->fit_km ? ", less the database's memory term at the run's mean" : "",
                 i ? p->km_before : p->kc_before);
        /* low/high: 2 standard errors of the trace-scale fit, on the model's scale */
        double sc = kt > 0 ? v / kt : 0, lo = fmax(0, (kt - 2 * se) * sc), hi = (kt + 2 * se) * sc;
        if (!isfinite(lo) || !isfinite(hi)) lo = hi = v;
        fprintf(f, "  - id: %s\n    value: %.6g\n    low: %.6g\n    high: %.6g\n    unit: \"1\"\n"
                "    source: calibration\n    derived: ", i ? p->km_id : p->kc_id, v, fmin(lo, v), fmax(hi, v));
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
    date_of(chk, when ? when : "");
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
    snprintf(buf, sizeof buf, "%g x %s, %s, %s; measured %.6g h, device energy %.6g kWh",
             c->devices, c->device_id, jc_mode_name(c->mode), jc_precision_name(c->precision),
             c->meas_hours, c->meas_device_kwh);
    jci_yaml_quote(f, buf);
    fprintf(f, "\ndevices:\n  - id: %s\n", c->device_id);
    if (c->fit_util) {
        char ub[32];
        snprintf(ub, sizeof ub, isnan(c->util_before) ? "n/a" : "%.4g", c->util_before);
        snprintf(buf, sizeof buf, "fitted by joulecast calibrate to the measured %s (%s) of %s; hwdb value before: %s; "
                 "low/high: %s",
                 !strcmp(c->util_from, "duration") ? "wall time" : "device energy",
                 !strcmp(c->util_from, "duration") ? "roofline time" : "roofline device energy", meas, ub,
                 isnan(c->util_before) ? "the fitted value (the hwdb has no utilisation figure to take a range from)"
                                       : "the hwdb's relative range around the fitted value");
        fprintf(f, "    utilization:\n      %s: {value: %.6g, low: %.6g, high: %.6g, source: calibration, measured: ",
                jc_mode_name(c->mode), c->util_after, c->util_low, c->util_high);
        jci_yaml_quote(f, buf);
        fprintf(f, "}\n");
    }
    if (c->fit_pj) {
        snprintf(buf, sizeof buf, "fitted by joulecast calibrate to the measured device energy of %s "
                 "(joules-per-op method at the fitted utilisation); hwdb value before: %.4g", meas, c->pj_before);
        fprintf(f, "    energy:\n      pj_per_flop:\n        %s: {value: %.6g, source: calibration, measured: ",
                jc_precision_name(c->precision), c->pj_after);
        jci_yaml_quote(f, buf);
        fprintf(f, "}\n");
    }
    write_idle(f, &c->power);
    if (ferror(f)) return jci_diag_set(d, JC_ERR_IO, "calibrate: write failed");
    return JC_OK;
}
