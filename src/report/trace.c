/*
 * trace.c (report) - `joulecast trace FILE`: the integrated power trace as
 * a text summary (one line per channel, then the totals per scope, gaps,
 * unreadable rows and the reader's assumptions) and as JSON (schema
 * joulecast-trace/1, docs/json-schemas.md).  Unknown values are "n/a" in
 * text and null in JSON, never 0.  (Reading a trace is the trace stage,
 * src/trace/.)
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "report/rjson.h"
#include "joulecast/trace.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

jc_status jc_report_trace_text(const jc_trace *t, FILE *f)
{
    if (!t || !f) return JC_ERR_USAGE;
    fprintf(f, "trace      %s (%s)\n", t->path, t->format_label ? t->format_label : jc_trace_format_name(t->format));
    if (t->start[0] && t->end[0]) fprintf(f, "window     %s to %s (%s s)\n", t->start, t->end, FMT_N(t->duration_s));
    else if (t->start[0]) fprintf(f, "window     run of %s (%s s)\n", t->start, FMT_N(t->duration_s));
    else fprintf(f, "window     relative times, %s s\n", FMT_N(t->duration_s));
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
        fmt_num(e, sizeof e, c->energy_j / JCI_S_PER_H);
        fmt_num(a, sizeof a, c->avg_w);
        fmt_num(p, sizeof p, c->peak_w);
        fmt_num(u, sizeof u, c->avg_util);
        fmt_num(iw, sizeof iw, c->idle_w);
        fmt_num(m, sizeof m, c->marginal_j / JCI_S_PER_H);
        fprintf(f, "  %-34.34s %-6s %9zu %11s %8s %8s %6s %9s %11s %5zu\n", c->name, jc_trace_scope_name(c->scope),
                c->samples, e, a, p, u, iw, m, c->n_gaps);
    }
    fprintf(f, "\n");
    for (int s = 0; s < JC_TRACE_SCOPE_COUNT; s++) {
        if (!t->has_scope[s]) continue;
        char m[32];
        fmt_num(m, sizeof m, t->marginal_j[s] / JCI_J_PER_KWH);
        fprintf(f, "%-6s     energy %s kWh (%s J), marginal above idle %s kWh\n", jc_trace_scope_name((jc_trace_scope)s),
                FMT_N(t->energy_j[s] / JCI_J_PER_KWH), FMT_N(t->energy_j[s]), m);
    }
    if (t->has_scope[JC_TRACE_DEVICE]) {
        char a[32], p[32], u[32];
        fmt_num(a, sizeof a, t->device_avg_w);
        fmt_num(p, sizeof p, t->device_peak_w);
        fmt_num(u, sizeof u, t->device_avg_util);
        fprintf(f, "devices    %zu; average %s W in all over the window, peak %s W (sum of the devices' latest "
                   "samples), average utilisation %s\n", t->n_devices, a, p, u);
    }
    for (size_t i = 0; i < t->n_channels; i++) {
        const jc_trace_channel *c = &t->channels[i];
        if (c->idle_found)
            fprintf(f, "idle       %s: leading %s s, trailing %s s%s, %s Wh at %s W (%s)\n", c->name,
                    FMT_N(c->lead_idle_s), FMT_N(c->trail_idle_s), c->idle_capped ? " (at least)" : "", FMT_N(c->idle_energy_j / JCI_S_PER_H),
                    FMT_N(c->idle_w), c->idle_rule);
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

static int rj_bool(cJSON *o, const char *k, int v)
{
    return cJSON_AddBoolToObject(o, k, v) != NULL;
}

static int scope_json(cJSON *tot, const jc_trace *t, int s)
{
    const char *name = jc_trace_scope_name((jc_trace_scope)s);
    if (!t->has_scope[s]) return cJSON_AddNullToObject(tot, name) != NULL;
    cJSON *o = cJSON_AddObjectToObject(tot, name);
    return o && rj_num(o, "energy_j", t->energy_j[s]) && rj_num(o, "energy_kwh", t->energy_j[s] / JCI_J_PER_KWH) &&
           rj_num(o, "marginal_j", t->marginal_j[s]);
}

static int channel_json(cJSON *chs, const jc_trace_channel *c)
{
    cJSON *o = rj_push_object(chs), *id;
    return o && rj_str(o, "name", c->name) && rj_num(o, "index", c->index >= 0 ? c->index : NAN) &&
           rj_str(o, "scope", jc_trace_scope_name(c->scope)) && rj_num(o, "samples", (double)c->samples) &&
           rj_num(o, "repeated", (double)c->repeated) && rj_num(o, "t_first_s", c->t_first) &&
           rj_num(o, "t_last_s", c->t_last) && rj_num(o, "covered_s", c->covered_s) &&
           rj_num(o, "energy_j", c->energy_j) && rj_num(o, "avg_w", c->avg_w) && rj_num(o, "peak_w", c->peak_w) &&
           rj_num(o, "min_w", c->min_w) && rj_num(o, "avg_util", c->avg_util) &&
           rj_num(o, "gaps", (double)c->n_gaps) && rj_num(o, "gap_s", c->gap_s) &&
           rj_num(o, "gap_threshold_s", c->gap_threshold_s) && (id = cJSON_AddObjectToObject(o, "idle")) &&
           rj_bool(id, "found", c->idle_found) && rj_str(id, "rule", c->idle_rule ? c->idle_rule : "") &&
           rj_num(id, "power_w", c->idle_w) && rj_num(id, "leading_s", c->idle_found ? c->lead_idle_s : NAN) &&
           rj_num(id, "trailing_s", c->idle_found ? c->trail_idle_s : NAN) &&
           rj_num(id, "energy_j", c->idle_found ? c->idle_energy_j : NAN) && rj_bool(id, "lower_bound", c->idle_capped) &&
           rj_num(o, "marginal_j", c->marginal_j);
}

static int issues_json(cJSON *r, const char *key, const jc_trace_issue *v, size_t n)
{
    cJSON *a = cJSON_AddArrayToObject(r, key);
    if (!a) return 0;
    for (size_t i = 0; i < n && i < JC_TRACE_MAX_ISSUES; i++) {
        cJSON *o = rj_push_object(a);
        if (!o || !rj_num(o, "line", v[i].line) || !rj_str(o, "message", v[i].msg)) return 0;
    }
    return 1;
}

char *jc_report_trace_json(const jc_trace *t)
{
    if (!t) return NULL;
    char *out = NULL;
    cJSON *r = cJSON_CreateObject(), *a;
    REQ(r);
    REQ(rj_str(r, "schema", "joulecast-trace/1"));
    REQ(rj_str(r, "path", t->path));
    REQ(rj_str(r, "format", jc_trace_format_name(t->format)));
    REQ(rj_str(r, "format_label", t->format_label ? t->format_label : ""));
    REQ(rj_str(r, "start", t->start[0] ? t->start : NULL));
    REQ(rj_str(r, "end", t->end[0] ? t->end : NULL));
    REQ(rj_num(r, "duration_s", t->duration_s));
    REQ(rj_num(r, "rows", (double)t->rows));
    REQ(rj_num(r, "rows_not_read", (double)t->n_bad));
    REQ(rj_num(r, "devices", (double)t->n_devices));
    REQ(rj_str(r, "device_name", t->device_name[0] ? t->device_name : NULL));
    cJSON *tot = cJSON_AddObjectToObject(r, "scopes");
    REQ(tot);
    for (int s = 0; s < JC_TRACE_SCOPE_COUNT; s++) REQ(scope_json(tot, t, s));
    REQ(rj_num(r, "device_avg_w", t->device_avg_w));
    REQ(rj_num(r, "device_peak_w", t->device_peak_w));
    REQ(rj_num(r, "device_avg_util", t->device_avg_util));
    REQ(a = cJSON_AddArrayToObject(r, "channels"));
    for (size_t i = 0; i < t->n_channels; i++) REQ(channel_json(a, &t->channels[i]));
    REQ(issues_json(r, "gaps", t->gaps, t->n_gaps));
    REQ(rj_num(r, "gaps_total", (double)t->n_gaps));
    REQ(issues_json(r, "not_read", t->bad, t->n_bad));
    REQ(rj_str_array(r, "notes", t->notes, t->n_notes));
    out = rj_print(r);
done:
    cJSON_Delete(r);
    return out;
}
