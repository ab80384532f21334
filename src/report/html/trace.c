/*
 * trace.c (report/html) - the "Measured run" section of the estimate page
 * when the estimate used a power trace (estimate --measured): the
 * prediction beside the measurement, and an inline-SVG chart of the trace,
 * power over time per channel (its chart series, NAN buckets breaking the
 * line), the leading and trailing idle phases shaded.
 */
#include "report/html/html_int.h"
#include "joulecast/trace.h"
#include "joulecast/estimate.h"

#include <math.h>
#include <string.h>

static const char *const colors[] = {"#1f6feb", "#f0a030", "#2e8b57", "#8e6bbf", "#d1495b", "#00a6a6",
                                     "#6b6b6b", "#b8860b"};

static void pct(FILE *f, double pred, double meas)
{
    if (isfinite(pred) && isfinite(meas) && meas > 0) fprintf(f, "%+.1f%%", 100 * (pred - meas) / meas);
    else fprintf(f, "n/a");
}

/* The chart: x seconds since the trace's start, y watts. */
static void chart(FILE *f, const jc_trace *t)
{
    const int W = 760, H = 260, L = 56, R = 12, T = 10, B = 34;
    double tmax = t->duration_s > 0 ? t->duration_s : 1, wmax = 0;
    for (size_t i = 0; i < t->n_channels; i++)
        for (size_t k = 0; k < t->channels[i].n_chart; k++)
            if (t->channels[i].chart[k].w > wmax) wmax = t->channels[i].chart[k].w;
    if (!(wmax > 0)) wmax = 1;
    wmax *= 1.05;
    double pw = W - L - R, ph = H - T - B;
#define X(s) (L + pw * (s) / tmax)
#define Y(w) (T + ph * (1 - (w) / wmax))
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart trace\">\n", W, H);
    /* idle phases: shaded bands */
    for (size_t i = 0; i < t->n_channels; i++) {
        const jc_trace_channel *c = &t->channels[i];
        if (!c->idle_found) continue;
        if (c->lead_idle_s > 0)
            fprintf(f, "<rect class=\"idle\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%.0f\" fill=\"#a7b1bc\" "
                       "fill-opacity=\"0.18\"><title>idle: ", X(c->t_first), T, X(c->t_first + c->lead_idle_s) - X(c->t_first), ph);
        if (c->lead_idle_s > 0) { jci_html_esc(f, c->name); fprintf(f, "</title></rect>\n"); }
        if (c->trail_idle_s > 0)
            fprintf(f, "<rect class=\"idle\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%.0f\" fill=\"#a7b1bc\" "
                       "fill-opacity=\"0.18\"><title>idle: ", X(c->t_last - c->trail_idle_s), T,
                    X(c->t_last) - X(c->t_last - c->trail_idle_s), ph);
        if (c->trail_idle_s > 0) { jci_html_esc(f, c->name); fprintf(f, "</title></rect>\n"); }
    }
    /* axes and ticks */
    fprintf(f, "<path class=\"axis\" d=\"M%d %dV%.0fH%.0f\" stroke=\"#3e4c59\" fill=\"none\"/>\n", L, T, T + ph, L + pw);
    for (int k = 0; k <= 4; k++) {
        double w = wmax * k / 4, s = tmax * k / 4;
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s W</text>\n", L - 4, Y(w) + 4, FMT_N(w));
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s s</text>\n", X(s), H - 14, FMT_N(s));
    }
    /* one line per channel, broken at gaps */
    for (size_t i = 0; i < t->n_channels; i++) {
        const jc_trace_channel *c = &t->channels[i];
        const char *col = colors[i % (sizeof colors / sizeof colors[0])];
        int open = 0;
        fprintf(f, "<g><title>");
        jci_html_esc(f, c->name);
        fprintf(f, " (%s)</title>\n", jc_trace_scope_name(c->scope));
        for (size_t k = 0; k < c->n_chart; k++) {
            double w = c->chart[k].w;
            if (!isfinite(w)) {
                if (open) fprintf(f, "\"/>\n");
                open = 0;
                continue;
            }
            if (!open) fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", col);
            fprintf(f, "%s%.2f,%.2f", open ? " " : "", X(c->chart[k].t), Y(w));
            open = 1;
        }
        if (open) fprintf(f, "\"/>\n");
        if (c->idle_found && isfinite(c->idle_w))
            fprintf(f, "<line x1=\"%d\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-dasharray=\"4 3\" "
                       "stroke-width=\"1\"/>\n", L, L + pw, Y(c->idle_w), Y(c->idle_w), col);
        fprintf(f, "</g>\n");
    }
    fprintf(f, "</svg>\n<p class=\"note\">");
    for (size_t i = 0; i < t->n_channels; i++) {
        fprintf(f, "%s<span style=\"color:%s\">&#9632;</span> ", i ? " &#160; " : "", colors[i % (sizeof colors / sizeof colors[0])]);
        jci_html_esc(f, t->channels[i].name);
    }
    fprintf(f, ". Shaded: the idle phases at the start and the end; dashed: each channel's idle level.</p>\n");
#undef X
#undef Y
}

void jci_html_measured_section(FILE *f, const jc_estimate *e)
{
    if (!e->has_measured || !e->trace) return;
    const jc_trace *t = e->trace;
    fprintf(f, "<section id=\"measured\"><h2>Measured run</h2><p class=\"note\">");
    jci_html_esc(f, t->path);
    fprintf(f, " (");
    jci_html_esc(f, t->format_label);
    if (t->start[0]) { fprintf(f, ", "); jci_html_esc(f, t->start); }
    if (t->end[0]) { fprintf(f, " to "); jci_html_esc(f, t->end); }
    fprintf(f, "): the measured %s energy and runtime replace the model's; %s</p>\n", e->measured_scope,
            !strcmp(e->measured_scope, "device") ? "the host term is modelled, PUE and grid intensity applied."
                                                 : "PUE and grid intensity applied.");
    double meas_dev = !strcmp(e->measured_scope, "host") ? NAN : e->energy_device_kwh.central;
    fprintf(f, "<table><thead><tr><th>figure</th><th class=\"n\">predicted</th><th class=\"n\">measured</th>"
               "<th class=\"n\">error of the prediction</th></tr></thead><tbody>\n<tr><td>energy, devices (kWh)</td>"
               "<td class=\"n\">");
    jci_html_num(f, "measured.predicted_device_kwh", e->predicted_device_kwh);
    fprintf(f, "</td><td class=\"n\">");
    jci_html_num(f, "results.energy_device_kwh.central", meas_dev);
    fprintf(f, "</td><td class=\"n\">");
    pct(f, e->predicted_device_kwh, meas_dev);
    fprintf(f, "</td></tr>\n<tr><td>wall time (h)</td><td class=\"n\">");
    jci_html_num(f, "measured.predicted_hours", e->predicted_hours);
    fprintf(f, "</td><td class=\"n\">");
    jci_html_num(f, "measured.hours", e->measured_hours);
    fprintf(f, "</td><td class=\"n\">");
    pct(f, e->predicted_hours, e->measured_hours);
    fprintf(f, "</td></tr>\n</tbody></table>\n");
    size_t np = 0;
    for (size_t i = 0; i < t->n_channels; i++) np += t->channels[i].n_chart;
    if (np) chart(f, t);
    else fprintf(f, "<p class=\"note\">The trace holds run totals only (no series to chart).</p>\n");
    fprintf(f, "</section>\n");
}
