/*
 * diff.c (workflows) - `joulecast diff old.json new.json --max-increase 20%`, the
 * energy gate of a CI pipeline: reads an `estimate --json` document back
 * (schema joulecast-estimate/1, docs/json-schemas.md) into a typed
 * summary and compares two of them (jc_read_estimate_json,
 * jc_estimate_diff).  A workflow, not a renderer: the text and JSON of
 * the diff are src/report/estimate_read.c's.
 */
#include "base/fmt.h"
#include "base/jc_internal.h"
#include "joulecast/workflows.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_JSON_BYTES ((long)64 << 20)

static const struct {
    const char *key, *label, *unit;
    int required, gated;
    double max;   /* the most an estimate gives (jc_internal.h, JCI_PLAUSIBLE_*) */
} metrics[JC_SUMMARY_METRICS] = {
    {"wall_hours", "wall time", "h", 1, 0, JCI_PLAUSIBLE_WALL_H},
    {"device_hours", "device-hours", "h", 1, 0, JCI_PLAUSIBLE_WALL_H * 1e8},   /* x --count's limit */
    {"energy_device_kwh", "energy, devices", "kWh", 1, 0, JCI_PLAUSIBLE_KWH},
    {"energy_host_kwh", "energy, host", "kWh", 1, 0, JCI_PLAUSIBLE_KWH},
    {"energy_facility_kwh", "energy, facility", "kWh", 1, 1, JCI_PLAUSIBLE_KWH},
    {"co2_location_kg", "emissions, location-based", "kgCO2e", 1, 1, JCI_PLAUSIBLE_KWH * 2},   /* x 2,000 g/kWh */
    {"co2_market_kg", "emissions, market-based", "kgCO2e", 0, 0, JCI_PLAUSIBLE_KWH * 2},
    {"co2_embodied_kg", "emissions, embodied", "kgCO2e", 0, 0, 1e5 * 1e8},   /* embodied_kgco2e's limit x devices */
    {"j_per_sample", "energy per sample", "J", 0, 0, JCI_PLAUSIBLE_KWH * JCI_J_PER_KWH},
};

const char *jc_summary_metric_key(int i)
{
    return i >= 0 && i < JC_SUMMARY_METRICS ? metrics[i].key : NULL;
}

const char *jc_summary_metric_label(int i)
{
    return i >= 0 && i < JC_SUMMARY_METRICS ? metrics[i].label : NULL;
}

const char *jc_summary_metric_unit(int i)
{
    return i >= 0 && i < JC_SUMMARY_METRICS ? metrics[i].unit : NULL;
}

static void copy(char *dst, size_t cap, const cJSON *o, const char *key)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    const char *s = cJSON_IsString(v) ? v->valuestring : "";
    if (jc_text_is_safe(s)) {
        snprintf(dst, cap, "%s", s);
        return;
    }
    /* an untrusted string: control bytes and newlines escaped (safetext.c) */
    FILE *f = fmemopen(dst, cap, "w");
    if (!f) {
        snprintf(dst, cap, "%s", "?");
        return;
    }
    setvbuf(f, NULL, _IONBF, 0);
    jc_text_escape(f, s);
    fclose(f);
    dst[cap - 1] = 0;
}

/* Reads the whole file (at most MAX_JSON_BYTES) into a malloc'ed string. */
static jc_status slurp(const char *path, char **out, jc_diag *d)
{
    size_t n;
    return jci_read_file(path, (size_t)MAX_JSON_BYTES, ": not an estimate", out, &n, d);
}

jc_status jc_read_estimate_json(const char *path, jc_estimate_summary *out, jc_diag *d)
{
    jci_diag_clear(d);
    if (!path || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_read_estimate_json: NULL argument");
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    char *text = NULL;
    jc_status st = slurp(path, &text, d);
    if (st) return st;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        return jci_diag_set(d, JC_ERR_USAGE, "%s: not a JSON document (write it with joulecast estimate --json)", path);
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, "joulecast-estimate/1")) {
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: schema is not joulecast-estimate/1 (write it with joulecast estimate --json)", path);
        goto out;
    }
    copy(out->mode, sizeof out->mode, root, "mode");
    copy(out->method, sizeof out->method, root, "method");
    copy(out->precision, sizeof out->precision, root, "precision");
    const cJSON *hw = cJSON_GetObjectItemCaseSensitive(root, "hardware");
    copy(out->device, sizeof out->device, hw, "device");
    copy(out->host, sizeof out->host, hw, "host");
    const cJSON *nd = hw ? cJSON_GetObjectItemCaseSensitive(hw, "devices") : NULL;
    out->devices = cJSON_IsNumber(nd) ? nd->valuedouble : NAN;
    copy(out->region, sizeof out->region, cJSON_GetObjectItemCaseSensitive(root, "region"), "code");
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    if (cJSON_IsObject(model)) {
        copy(out->model, sizeof out->model, model, "path");
        copy(out->model_sha256, sizeof out->model_sha256, model, "sha256");
        copy(out->model_graph_sha256, sizeof out->model_graph_sha256, model, "graph_sha256");
    }
    copy(out->hwdb_version, sizeof out->hwdb_version, root, "hwdb_version");
    copy(out->figures, sizeof out->figures, root, "figures");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(root, "results");
    if (!cJSON_IsObject(res)) {
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: no \"results\" object", path);
        goto out;
    }
    for (int i = 0; i < JC_SUMMARY_METRICS; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(res, metrics[i].key);
        if (!m || cJSON_IsNull(m)) {
            if (metrics[i].required) {
                st = jci_diag_set(d, JC_ERR_USAGE, "%s: results.%s is missing", path, metrics[i].key);
                goto out;
            }
            continue;
        }
        const cJSON *lo = cJSON_GetObjectItemCaseSensitive(m, "low"),
                    *c = cJSON_GetObjectItemCaseSensitive(m, "central"),
                    *hi = cJSON_GetObjectItemCaseSensitive(m, "high");
        if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(c) || !cJSON_IsNumber(hi) ||
            !isfinite(lo->valuedouble) || !isfinite(c->valuedouble) || !isfinite(hi->valuedouble)) {
            st = jci_diag_set(d, JC_ERR_USAGE, "%s: results.%s is not a {low, central, high} object of numbers",
                             path, metrics[i].key);
            goto out;
        }
        /* times, energies and emissions are >= 0: a file that says otherwise
         * was not written by joulecast estimate */
        if (lo->valuedouble < 0 || c->valuedouble < 0 || hi->valuedouble < 0) {
            st = jci_diag_set(d, JC_ERR_USAGE, "%s: results.%s is {%g, %g, %g}: a negative figure", path,
                             metrics[i].key, lo->valuedouble, c->valuedouble, hi->valuedouble);
            goto out;
        }
        /* a figure no estimate gives (1e308 kWh gave a change of +inf%) */
        if (hi->valuedouble > metrics[i].max || c->valuedouble > metrics[i].max) {
            st = jci_diag_set(d, JC_ERR_RANGE, "%s: results.%s is %s %s, beyond what an estimate gives (at most %s %s: "
                              "a century, more energy than any country uses in a year)", path, metrics[i].key,
                              FMT_X(fmax(hi->valuedouble, c->valuedouble)), metrics[i].unit, FMT_N(metrics[i].max),
                              metrics[i].unit);
            goto out;
        }
        /* per-sample figures are 0 when the estimate has no sample count: n/a */
        if (!metrics[i].required && !strcmp(metrics[i].key, "j_per_sample") && c->valuedouble == 0) continue;
        out->present[i] = 1;
        out->metric[i].low = lo->valuedouble;
        out->metric[i].central = c->valuedouble;
        out->metric[i].high = hi->valuedouble;
    }
out:
    cJSON_Delete(root);
    return st;
}

/* ---- diff ---------------------------------------------------------------------- */

static void change(jc_diff *df, const char *what, const char *a, const char *b)
{
    if (!strcmp(a, b) || df->n_changes >= sizeof df->changes / sizeof df->changes[0]) return;
    snprintf(df->changes[df->n_changes++], sizeof df->changes[0], "%s: %s -> %s", what,
             *a ? a : "(none)", *b ? b : "(none)");
}

jc_status jc_estimate_diff(const jc_estimate_summary *a, const jc_estimate_summary *b,
                           double max_increase, int on_high, jc_diff *df, jc_diag *d)
{
    jci_diag_clear(d);
    if (!a || !b || !df) return jci_diag_set(d, JC_ERR_USAGE, "jc_estimate_diff: NULL argument");
    if (!isnan(max_increase) && !(max_increase >= 0 && isfinite(max_increase)))
        return jci_diag_set(d, JC_ERR_USAGE, "--max-increase must be >= 0 (got %s)", FMT_N(max_increase));
    memset(df, 0, sizeof *df);
    df->old_e = a;
    df->new_e = b;
    df->max_increase = max_increase;
    df->on_high = on_high;
    change(df, "model", a->model, b->model);
    if (!strcmp(a->model, b->model) && a->model_graph_sha256[0] && b->model_graph_sha256[0])
        change(df, "model graph (graph_sha256)", a->model_graph_sha256, b->model_graph_sha256);
    if (!strcmp(a->model, b->model) && a->model_sha256[0] && b->model_sha256[0])
        change(df, "model file (sha256)", a->model_sha256, b->model_sha256);
    change(df, "hwdb data version", a->hwdb_version, b->hwdb_version);
    if (a->figures[0] && b->figures[0]) change(df, "figures", a->figures, b->figures);
    change(df, "mode", a->mode, b->mode);
    change(df, "method", a->method, b->method);
    change(df, "precision", a->precision, b->precision);
    change(df, "device", a->device, b->device);
    change(df, "host", a->host, b->host);
    change(df, "region", a->region, b->region);
    if (a->devices != b->devices && !(isnan(a->devices) && isnan(b->devices))) {
        char x[40], y[40];
        fmt_num(x, sizeof x, a->devices);
        fmt_num(y, sizeof y, b->devices);
        change(df, "devices", x, y);
    }
    char why[900] = "";
    for (int i = 0; i < JC_SUMMARY_METRICS; i++) {
        if (!a->present[i] && !b->present[i]) continue;
        jc_diff_row *r = &df->rows[df->n++];
        r->key = metrics[i].key;
        r->label = metrics[i].label;
        r->unit = metrics[i].unit;
        r->present_old = a->present[i];
        r->present_new = b->present[i];
        r->old_v = on_high ? a->metric[i].high : a->metric[i].central;
        r->new_v = on_high ? b->metric[i].high : b->metric[i].central;
        if (!r->present_old) r->old_v = NAN;
        if (!r->present_new) r->new_v = NAN;
        r->change = r->present_old && r->present_new && r->old_v != 0 ? (r->new_v - r->old_v) / r->old_v : NAN;
        if (!isfinite(r->change)) r->change = NAN;   /* from a denormal figure: shown as from 0 */
        r->gated = metrics[i].gated && !isnan(max_increase);
        if (r->gated && r->present_old && r->present_new) {
            /* from zero, any rise is over the limit */
            int up = isnan(r->change) ? r->new_v > r->old_v : r->change > max_increase;
            if (up) {
                r->exceeded = 1;
                df->exceeded = 1;
                size_t n = strlen(why);
                if (isnan(r->change))
                    snprintf(why + n, sizeof why - n, "%s%s rose from 0 to %s %s", n ? "; " : "", r->label,
                             FMT_N(r->new_v), r->unit);
                else
                    snprintf(why + n, sizeof why - n, "%s%s rose by %.1f%% (%s -> %s %s), more than the %.1f%% allowed",
                             n ? "; " : "", r->label, 100 * r->change, FMT_N(r->old_v), FMT_N(r->new_v), r->unit,
                             100 * max_increase);
            }
        }
    }
    if (df->exceeded) return jci_diag_set(d, JC_ERR_BUDGET, "diff: %s", why);
    return JC_OK;
}
