/*
 * trace.c (report) - `joulecast trace FILE`: the integrated power trace as
 * a text summary (one line per channel, then the totals per scope, gaps,
 * unreadable rows and the reader's assumptions) and as JSON (schema
 * joulecast-trace/1, docs/json-schemas.md).  Unknown values are "n/a" in
 * text and null in JSON, never 0.
 */
#include "base/jc_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

static void num(char *b, size_t cap, const char *fmt, double v)
{
    if (isfinite(v)) snprintf(b, cap, fmt, v);
    else snprintf(b, cap, "n/a");
}

jc_status jc_report_trace_text(const jc_trace *t, FILE *f)
{
    if (!t || !f) return JC_ERR_USAGE;
    fprintf(f, "trace      %s (%s)\n", t->path, t->format_label ? t->format_label : jc_trace_format_name(t->format));
    if (t->start[0] && t->end[0]) fprintf(f, "window     %s to %s (%.6g s)\n", t->start, t->end, t->duration_s);
    else if (t->start[0]) fprintf(f, "window     run of %s (%.6g s)\n", t->start, t->duration_s);
    else fprintf(f, "window     relative times, %.6g s\n", t->duration_s);
    size_t ns = 0;
    for (size_t i = 0; i < t->n_channels; i++) ns += t->channels[i].samples;
    fprintf(f, "read       %zu data row%s, %zu sample%s in %zu channel%s; %zu row%s not read\n\n", t->rows,
            t->rows == 1 ? "" : "s", ns, ns == 1 ? "" : "s", t->n_channels, t->n_channels == 1 ? "" : "s",
            t->n_bad, t->n_bad == 1 ? "" : "s");
    fprintf(f, "  %-34s %-6s %9s %11s %8s %8s %6s %9s %11s %5s\n", "channel", "scope", "samples", "energy, Wh",
            "avg, W", "peak, W", "util", "idle, W", "marginal Wh", "gaps");
    for (size_t i = 0; i < t->n_channels; i++) {
        const jc_trace_channel *c = &t->channels[i];
        char e[32], a[32], p[32], u[32], iw[32], m[32];
        num(e, sizeof e, "%.4f", c->energy_j / 3600);
        num(a, sizeof a, "%.2f", c->avg_w);
        num(p, sizeof p, "%.2f", c->peak_w);
        num(u, sizeof u, "%.3f", c->avg_util);
        num(iw, sizeof iw, "%.2f", c->idle_w);
        num(m, sizeof m, "%.4f", c->marginal_j / 3600);
        fprintf(f, "  %-34.34s %-6s %9zu %11s %8s %8s %6s %9s %11s %5zu\n", c->name, jc_trace_scope_name(c->scope),
                c->samples, e, a, p, u, iw, m, c->n_gaps);
    }
    fprintf(f, "\n");
    for (int s = 0; s < JC_TRACE_SCOPE_COUNT; s++) {
        if (!t->has_scope[s]) continue;
        char m[32];
        num(m, sizeof m, "%.6g", t->marginal_j[s] / 3.6e6);
        fprintf(f, "%-6s     energy %.6g kWh (%.6g J), marginal above idle %s kWh\n", jc_trace_scope_name((jc_trace_scope)s),
                t->energy_j[s] / 3.6e6, t->energy_j[s], m);
    }
    if (t->has_scope[JC_TRACE_DEVICE]) {
        char a[32], p[32], u[32];
        num(a, sizeof a, "%.2f", t->device_avg_w);
        num(p, sizeof p, "%.2f", t->device_peak_w);
        num(u, sizeof u, "%.3f", t->device_avg_util);
        fprintf(f, "devices    %zu; average %s W in all over the window, peak %s W (sum of the devices' latest "
                   "samples), average utilisation %s\n", t->n_devices, a, p, u);
    }
    for (size_t i = 0; i < t->n_channels; i++) {
        const jc_trace_channel *c = &t->channels[i];
        if (c->idle_found)
            fprintf(f, "idle       %s: leading %.6g s, trailing %.6g s%s, %.4g Wh at %.2f W (%s)\n", c->name,
                    c->lead_idle_s, c->trail_idle_s, c->idle_capped ? " (at least)" : "", c->idle_energy_j / 3600,
                    c->idle_w, c->idle_rule);
        else
            fprintf(f, "idle       %s: none found (%s)\n", c->name, c->idle_rule ? c->idle_rule : "n/a");
    }
    for (size_t i = 0; i < t->n_gaps && i < JC_TRACE_MAX_ISSUES; i++)
        fprintf(f, "gap        %s:%d: %s\n", t->path, t->gaps[i].line, t->gaps[i].msg);
    if (t->n_gaps > JC_TRACE_MAX_ISSUES) fprintf(f, "gap        ... and %zu more\n", t->n_gaps - JC_TRACE_MAX_ISSUES);
    for (size_t i = 0; i < t->n_bad && i < JC_TRACE_MAX_ISSUES; i++)
        fprintf(f, "not read   %s:%d: %s\n", t->path, t->bad[i].line, t->bad[i].msg);
    if (t->n_bad > JC_TRACE_MAX_ISSUES) fprintf(f, "not read   ... and %zu more rows\n", t->n_bad - JC_TRACE_MAX_ISSUES);
    for (size_t i = 0; i < t->n_notes; i++) fprintf(f, "note       %s\n", t->notes[i]);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

static cJSON *jnum(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

char *jc_report_trace_json(const jc_trace *t)
{
    if (!t) return NULL;
    cJSON *r = cJSON_CreateObject();
    if (!r) return NULL;
    cJSON_AddStringToObject(r, "schema", "joulecast-trace/1");
    cJSON_AddStringToObject(r, "path", t->path);
    cJSON_AddStringToObject(r, "format", jc_trace_format_name(t->format));
    cJSON_AddStringToObject(r, "format_label", t->format_label ? t->format_label : "");
    cJSON_AddItemToObject(r, "start", t->start[0] ? cJSON_CreateString(t->start) : cJSON_CreateNull());
    cJSON_AddItemToObject(r, "end", t->end[0] ? cJSON_CreateString(t->end) : cJSON_CreateNull());
    cJSON_AddItemToObject(r, "duration_s", jnum(t->duration_s));
    cJSON_AddNumberToObject(r, "rows", (double)t->rows);
    cJSON_AddNumberToObject(r, "rows_not_read", (double)t->n_bad);
    cJSON_AddNumberToObject(r, "devices", (double)t->n_devices);
    cJSON_AddItemToObject(r, "device_name", t->device_name[0] ? cJSON_CreateString(t->device_name) : cJSON_CreateNull());
    cJSON *tot = cJSON_AddObjectToObject(r, "scopes");
    for (int s = 0; s < JC_TRACE_SCOPE_COUNT; s++) {
        if (!t->has_scope[s]) { cJSON_AddNullToObject(tot, jc_trace_scope_name((jc_trace_scope)s)); continue; }
        cJSON *o = cJSON_AddObjectToObject(tot, jc_trace_scope_name((jc_trace_scope)s));
        cJSON_AddItemToObject(o, "energy_j", jnum(t->energy_j[s]));
        cJSON_AddItemToObject(o, "energy_kwh", jnum(t->energy_j[s] / 3.6e6));
        cJSON_AddItemToObject(o, "marginal_j", jnum(t->marginal_j[s]));
    }
    cJSON_AddItemToObject(r, "device_avg_w", jnum(t->device_avg_w));
    cJSON_AddItemToObject(r, "device_peak_w", jnum(t->device_peak_w));
    cJSON_AddItemToObject(r, "device_avg_util", jnum(t->device_avg_util));
    cJSON *chs = cJSON_AddArrayToObject(r, "channels");
    for (size_t i = 0; i < t->n_channels; i++) {
        const jc_trace_channel *c = &t->channels[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(chs, o);
        cJSON_AddStringToObject(o, "name", c->name);
        cJSON_AddItemToObject(o, "index", c->index >= 0 ? cJSON_CreateNumber(c->index) : cJSON_CreateNull());
        cJSON_AddStringToObject(o, "scope", jc_trace_scope_name(c->scope));
        cJSON_AddNumberToObject(o, "samples", (double)c->samples);
        cJSON_AddNumberToObject(o, "repeated", (double)c->repeated);
        cJSON_AddItemToObject(o, "t_first_s", jnum(c->t_first));
        cJSON_AddItemToObject(o, "t_last_s", jnum(c->t_last));
        cJSON_AddItemToObject(o, "covered_s", jnum(c->covered_s));
        cJSON_AddItemToObject(o, "energy_j", jnum(c->energy_j));
        cJSON_AddItemToObject(o, "avg_w", jnum(c->avg_w));
        cJSON_AddItemToObject(o, "peak_w", jnum(c->peak_w));
        cJSON_AddItemToObject(o, "min_w", jnum(c->min_w));
        cJSON_AddItemToObject(o, "avg_util", jnum(c->avg_util));
        cJSON_AddNumberToObject(o, "gaps", (double)c->n_gaps);
        cJSON_AddItemToObject(o, "gap_s", jnum(c->gap_s));
        cJSON_AddItemToObject(o, "gap_threshold_s", jnum(c->gap_threshold_s));
        cJSON *id = cJSON_AddObjectToObject(o, "idle");
        cJSON_AddBoolToObject(id, "found", c->idle_found);
        cJSON_AddStringToObject(id, "rule", c->idle_rule ? c->idle_rule : "");
        cJSON_AddItemToObject(id, "power_w", jnum(c->idle_w));
        cJSON_AddItemToObject(id, "leading_s", jnum(c->idle_found ? c->lead_idle_s : NAN));
        cJSON_AddItemToObject(id, "trailing_s", jnum(c->idle_found ? c->trail_idle_s : NAN));
        cJSON_AddItemToObject(id, "energy_j", jnum(c->idle_found ? c->idle_energy_j : NAN));
        cJSON_AddBoolToObject(id, "lower_bound", c->idle_capped);
        cJSON_AddItemToObject(o, "marginal_j", jnum(c->marginal_j));
    }
    cJSON *g = cJSON_AddArrayToObject(r, "gaps");
    for (size_t i = 0; i < t->n_gaps && i < JC_TRACE_MAX_ISSUES; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(g, o);
        cJSON_AddNumberToObject(o, "line", t->gaps[i].line);
        cJSON_AddStringToObject(o, "message", t->gaps[i].msg);
    }
    cJSON_AddNumberToObject(r, "gaps_total", (double)t->n_gaps);
    cJSON *b = cJSON_AddArrayToObject(r, "not_read");
    for (size_t i = 0; i < t->n_bad && i < JC_TRACE_MAX_ISSUES; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(b, o);
        cJSON_AddNumberToObject(o, "line", t->bad[i].line);
        cJSON_AddStringToObject(o, "message", t->bad[i].msg);
    }
    cJSON *n = cJSON_AddArrayToObject(r, "notes");
    for (size_t i = 0; i < t->n_notes; i++) cJSON_AddItemToArray(n, cJSON_CreateString(t->notes[i]));
    char *s = cJSON_Print(r);
    cJSON_Delete(r);
    return s;
}
