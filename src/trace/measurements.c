/*
 * measurements.c (trace) - reads a measurement CSV (jc_measurements_load):
 * CodeCarbon's emissions.csv (run totals) or the simple form (job/model,
 * device, count, hours, device kWh or average watts, date), each row
 * checked against the physical range of a measurement and named by
 * path:line.  Part of the trace stage (measured runs, read below the
 * estimate): `calibrate` fits to a row, and the trace reader takes
 * CodeCarbon's file as a trace of run totals.
 */
#include "base/fmt.h"
#include "base/jc_internal.h"
#include "trace/trace_int.h"
#include "joulecast/workflows.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CSV_BYTES ((size_t)64 << 20)
#define MAX_FIELDS 128

/* ---- CSV --------------------------------------------------------------------- */

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
        jci_date_ymd(m->date, ts);
        if (ts[0] && !m->date[0]) bad = "timestamp";
        double gpu = NAN, cpu = NAN, ram = NAN, tot = NAN;
        NUM("duration", &m->duration_s);
        NUM("gpu_energy", &gpu);
        NUM("cpu_energy", &cpu);
        NUM("ram_energy", &ram);
        NUM("energy_consumed", &tot);
        NUM("pue", &m->pue);
        NUM("gpu_count", &m->devices);
        /* CodeCarbon's pue: a facility's, as the hwdb bounds one (fields_region.def) */
        if (!bad && !isnan(m->pue) && !(m->pue >= 1 && m->pue <= 3))
            return jci_diag_set(d, JC_ERR_RANGE, "%s:%d: column 'pue': %s is outside a facility's range [1, 3]",
                                path, at, FMT_X(m->pue));
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
        jci_date_ymd(m->date, dt);
        if (!bad && dt[0] && !m->date[0]) bad = "date";
        m->duration_s = hours * JCI_S_PER_H;
        m->device_kwh = kwh;
        if (isnan(kwh) && !isnan(m->avg_power_w) && !isnan(hours))
            m->device_kwh = m->avg_power_w * (isnan(m->devices) ? 1 : m->devices) * hours / 1000;
    }
#undef NUM
    if (bad) {
        int date = !strcmp(bad, "date") || !strcmp(bad, "timestamp");
        return jci_diag_set(d, JC_ERR_USAGE, "%s:%d: column '%s': %s", path, at, bad,
                            date ? "not a date YYYY-MM-DD (a year 1800-2100, a month 1-12, a day its month has)"
                                 : "not a number");
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
    if (!isnan(m->duration_s) && !isnan(m->device_kwh) && m->device_kwh * JCI_J_PER_KWH / m->duration_s / n > 5e4)
        return jci_diag_set(d, JC_ERR_RANGE, "%s:%d: %g kWh over %g s is more than 50 kW per device: not a "
                            "measurement", path, at, m->device_kwh, m->duration_s);
    return JC_OK;
}

int tr_nul_line(const char *buf, size_t n, int *line)
{
    for (size_t i = 0; i < n; i++) {
        if (!buf[i]) return 1;
        if (buf[i] == '\n') ++*line;
    }
    return 0;
}

jc_status jc_measurements_load(const char *path, jc_measurements **out, jc_diag *d)
{
    jci_diag_clear(d);
    if (!path || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_measurements_load: NULL argument");
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    jc_status st = jci_read_file(path, MAX_CSV_BYTES, "", &text, &len, d);
    if (st) return st;
    int nul = 1;
    if (tr_nul_line(text, len, &nul)) {
        free(text);
        return jci_diag_set(d, JC_ERR_USAGE, "%s:%d: a NUL byte: a measurement file is text", path, nul);
    }
    jci_arena *a = jci_arena_new();
    if (!a) { free(text); return jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); }
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
    if (!ms) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    ms->internal_ = a;   /* the arena that holds it all */
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
    if (m) jci_arena_free(m->internal_);
}
