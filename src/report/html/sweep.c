/*
 * sweep.c (report/html) - the HTML page of a sweep: the time-energy
 * scatter on log axes with the Pareto front, and the table of entries.
 * The frame, the escaper and the charts are page.c (html_int.h).
 */
#include "report/html/html_int.h"
#include "joulecast/sweep.h"
#include "joulecast/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- sweep ---------------------------------------------------------------------------- */

typedef struct axis {
    int log;
    double lo, hi;     /* data range mapped (log: log10 of it) */
    double p0, p1;     /* pixel range */
} axis;

static axis make_axis(double mn, double mx, double p0, double p1)
{
    axis a;
    a.p0 = p0;
    a.p1 = p1;
    a.log = mn > 0 && mx / mn > 20;
    if (a.log) {
        /* the nearest 1, 2, 5 x 10^k around the data */
        double d = floor(log10(mn)), m = mn / pow(10, d);
        a.lo = d + (m >= 5 ? log10(5) : m >= 2 ? log10(2) : 0);
        d = floor(log10(mx));
        m = mx / pow(10, d);
        a.hi = d + (m <= 1 ? 0 : m <= 2 ? log10(2) : m <= 5 ? log10(5) : 1);
        if (a.hi <= a.lo) a.hi = a.lo + 1;
    } else {
        double span = mx - (mn < 0 ? mn : 0);
        double step = pow(10, floor(log10(span > 0 ? span : 1)));
        a.lo = 0;
        a.hi = ceil(mx / step) * step;
        if (a.hi <= 0) a.hi = 1;
    }
    return a;
}

static double ax_map(const axis *a, double v)
{
    double t = a->log ? (log10(v > 0 ? v : pow(10, a->lo)) - a->lo) / (a->hi - a->lo) : (v - a->lo) / (a->hi - a->lo);
    return a->p0 + t * (a->p1 - a->p0);
}

/* Tick values of an axis: decades (with 2 and 5 when few) or 5 linear steps. */
static size_t ax_ticks(const axis *a, double *t, size_t cap)
{
    size_t n = 0;
    if (a->log) {
        int few = a->hi - a->lo <= 3.5;
        static const double mult[3] = {1, 2, 5};
        for (int d = (int)floor(a->lo); d <= (int)ceil(a->hi) && n < cap; d++)
            for (int k = 0; k < (few ? 3 : 1) && n < cap; k++) {
                double v = mult[k] * pow(10, d), l = log10(v);
                if (l >= a->lo - 1e-9 && l <= a->hi + 1e-9) t[n++] = v;
            }
    } else {
        for (int i = 0; i <= 5 && n < cap; i++) t[n++] = a->lo + (a->hi - a->lo) * i / 5;
    }
    return n;
}

static void entry_title(FILE *f, const jc_sweep_entry *x)
{
    char a[48], b[48];
    jci_html_esc(f, x->device_id);
    fprintf(f, " in ");
    jci_html_esc(f, x->region_code ? x->region_code : "(--ci)");
    fprintf(f, ", %s", x->precision ? x->precision : "");
    if (x->batch > 0) fprintf(f, ", batch %s", FMT_N(x->batch));
    fprintf(f, ": %s h, %s kgCO2e", fmt_num(a, sizeof a, x->wall_hours.central), fmt_num(b, sizeof b, x->co2_kg.central));
}

static int by_time(const void *pa, const void *pb)
{
    const jc_sweep_entry *a = *(const jc_sweep_entry *const *)pa, *b = *(const jc_sweep_entry *const *)pb;
    if (a->wall_hours.central != b->wall_hours.central) return a->wall_hours.central < b->wall_hours.central ? -1 : 1;
    return (a->co2_kg.central > b->co2_kg.central) - (a->co2_kg.central < b->co2_kg.central);
}

/* The Pareto-front entries of s, fastest first, in a malloc'd array the
   caller frees (*n of them); NULL when out of memory. */
static const jc_sweep_entry **front_by_time(const jc_sweep *s, size_t *n)
{
    const jc_sweep_entry **fr = malloc((s->n_pareto ? s->n_pareto : 1) * sizeof *fr);
    *n = 0;
    if (!fr) return NULL;
    for (size_t i = 0; i < s->n_entries; i++)
        if (s->entries[i].pareto) fr[(*n)++] = &s->entries[i];
    qsort(fr, *n, sizeof *fr, by_time);
    return fr;
}

static jc_status svg_scatter(FILE *f, const jc_sweep *s)
{
    const int vw = 1060, vh = 500, ml = 86, mr = 24, mt = 16, mb = 54;
    double tmin = INFINITY, tmax = 0, cmin = INFINITY, cmax = 0;
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *x = &s->entries[i];
        if (x->wall_hours.central < tmin) tmin = x->wall_hours.central;
        if (x->wall_hours.central > tmax) tmax = x->wall_hours.central;
        if (x->co2_kg.central < cmin) cmin = x->co2_kg.central;
        if (x->co2_kg.central > cmax) cmax = x->co2_kg.central;
    }
    axis ax = make_axis(tmin, tmax, ml, vw - mr), ay = make_axis(cmin, cmax, vh - mb, mt);
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart scatter\">\n", vw, vh);
    double t[40];
    size_t nt = ax_ticks(&ax, t, 40);
    char b[48];
    for (size_t i = 0; i < nt; i++) {
        double x = ax_map(&ax, t[i]);
        fprintf(f, "<line class=\"gridl\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" "
                   "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, mt, x, vh - mb, x, vh - mb + 16,
                fmt_num(b, sizeof b, t[i]));
    }
    nt = ax_ticks(&ay, t, 40);
    for (size_t i = 0; i < nt; i++) {
        double y = ax_map(&ay, t[i]);
        fprintf(f, "<line class=\"gridl\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text class=\"tick\" "
                   "x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", ml, y, vw - mr, y, ml - 8, y + 4,
                fmt_num(b, sizeof b, t[i]));
    }
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line class=\"axis\" x1=\"%d\" "
               "y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ml, vh - mb, vw - mr, vh - mb, ml, mt, ml, vh - mb);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12.5\" text-anchor=\"middle\">wall time, hours%s</text>\n",
            (ml + vw - mr) / 2, vh - 12, ax.log ? " (log scale)" : "");
    fprintf(f, "<text transform=\"translate(18 %d) rotate(-90)\" font-size=\"12.5\" text-anchor=\"middle\">"
               "emissions, kgCO2e%s</text>\n", (mt + vh - mb) / 2, ay.log ? " (log scale)" : "");
    /* every entry, then the front on top */
    fprintf(f, "<g fill=\"#7b8794\" fill-opacity=\"0.45\">\n");
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *x = &s->entries[i];
        if (x->pareto) continue;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>", ax_map(&ax, x->wall_hours.central),
                ax_map(&ay, x->co2_kg.central));
        entry_title(f, x);
        fprintf(f, "</title></circle>\n");
    }
    fprintf(f, "</g>\n");
    size_t nf;
    const jc_sweep_entry **fr = front_by_time(s, &nf);
    if (!fr) return JC_ERR_NOMEM;
    if (nf > 1) {
        fprintf(f, "<path fill=\"none\" stroke=\"var(--front)\" stroke-width=\"2\" d=\"");
        for (size_t i = 0; i < nf; i++) {
            double x = ax_map(&ax, fr[i]->wall_hours.central), y = ax_map(&ay, fr[i]->co2_kg.central);
            if (i == 0) fprintf(f, "M%.1f %.1f", x, y);
            else fprintf(f, "H%.1fV%.1f", x, y);   /* a staircase: the front holds between points */
        }
        fprintf(f, "\"/>\n");
    }
    for (size_t i = 0; i < nf; i++) {
        size_t rank = (size_t)(fr[i] - s->entries);
        char k[96];
        fprintf(f, "<circle class=\"front\" cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"var(--front)\" stroke=\"#fff\" "
                   "stroke-width=\"1.5\"", ax_map(&ax, fr[i]->wall_hours.central), ax_map(&ay, fr[i]->co2_kg.central));
        snprintf(k, sizeof k, "entries.%zu.co2_kg.central", rank);
        jci_html_dattr(f, k, fr[i]->co2_kg.central);
        fprintf(f, "><title>Pareto front: ");
        entry_title(f, fr[i]);
        fprintf(f, "</title></circle>\n");
    }
    free(fr);
    fprintf(f, "</svg>\n<div class=\"legend\"><span><i style=\"background:var(--front)\"></i>Pareto front: no "
               "other entry is both faster and lower in emissions</span><span><i style=\"background:#b7bec7\"></i>"
               "other entries</span></div>\n");
    return JC_OK;
}

static void sweep_row(FILE *f, const jc_sweep *s, size_t i)
{
    const jc_sweep_entry *x = &s->entries[i];
    char k[96];
    fprintf(f, "<tr%s><td class=\"n\">%zu</td><td>%s</td><td class=\"name\">", x->pareto ? " class=\"front\"" : "",
            i + 1, x->pareto ? "&#9733;" : "");
    jci_html_esc(f, x->device_id);
    fprintf(f, "<br><span class=\"src\">");
    jci_html_esc(f, x->device_name);
    fprintf(f, "</span></td><td>");
    jci_html_esc(f, x->region_code ? x->region_code : "(--ci)");
    fprintf(f, "</td><td>%s</td><td class=\"n\">", x->precision ? x->precision : "");
    if (x->batch > 0) {
        snprintf(k, sizeof k, "entries.%zu.batch", i);
        jci_html_inum(f, k, x->batch);
    } else {
        fprintf(f, "-");
    }
    const char *rk[3] = {"wall_hours", "energy_kwh", "co2_kg"};
    const jc_range *rv[3] = {&x->wall_hours, &x->energy_kwh, &x->co2_kg};
    for (int c = 0; c < 3; c++) {
        fprintf(f, "</td><td class=\"n\">");
        snprintf(k, sizeof k, "entries.%zu.%s.central", i, rk[c]);
        jci_html_num(f, k, rv[c]->central);
    }
    fprintf(f, "</td><td class=\"n\">");
    snprintf(k, sizeof k, "entries.%zu.ci_gco2e_per_kwh", i);
    jci_html_num(f, k, x->ci);
    fprintf(f, "</td><td class=\"n\">");
    snprintf(k, sizeof k, "entries.%zu.pue", i);
    jci_html_num(f, k, x->pue);
    fprintf(f, "</td></tr>\n");
}

static void sweep_head(FILE *f)
{
    fprintf(f, "<thead><tr><th class=\"n\">rank</th><th></th><th>device</th><th>region</th><th>prec</th>"
               "<th class=\"n\">batch</th><th class=\"n\">wall h</th><th class=\"n\">facility kWh</th>"
               "<th class=\"n\">kgCO2e</th><th class=\"n\">gCO2e/kWh</th><th class=\"n\">PUE</th></tr></thead>\n");
}

jc_status jc_report_sweep_html(const jc_sweep *s, size_t top, FILE *f)
{
    if (!s || !f) return JC_ERR_USAGE;
    char b1[40];
    jci_html_page_begin(f, "joulecast sweep", s->model ? s->model : "a job given by its FLOPs");
    fprintf(f, "<p class=\"sub\"><b>%s</b> &#183; %s method &#183; sorted by <b>%s</b> (central) &#183; %zu device%s "
               "&#215; %zu region%s &#215; %zu batch size%s &#215; %zu precision%s = %s points</p>\n</header>\n",
            jc_mode_name(s->mode), jc_method_name(s->method), jc_sweep_sort_name(s->sort), s->n_devices,
            s->n_devices == 1 ? "" : "s", s->n_regions, s->n_regions == 1 ? "" : "s", s->n_batches,
            s->n_batches == 1 ? "" : "s", s->n_precisions, s->n_precisions == 1 ? "" : "s",
            fmt_int(b1, sizeof b1, (int64_t)s->n_points));
    fprintf(f, "<div class=\"cards\">\n<div class=\"card\"><div class=\"label\">Estimated</div><div class=\"big\">");
    jci_html_inum(f, "grid.estimated", (double)s->n_entries);
    fprintf(f, "</div><div class=\"range\">of ");
    jci_html_inum(f, "grid.points", (double)s->n_points);
    fprintf(f, " grid points</div></div>\n<div class=\"card\"><div class=\"label\">Skipped</div><div class=\"big\">");
    jci_html_inum(f, "grid.skipped_points", (double)s->n_skipped_points);
    fprintf(f, "</div><div class=\"range\">each listed with its reason</div></div>\n<div class=\"card\"><div "
               "class=\"label\">Pareto front</div><div class=\"big\">");
    jci_html_inum(f, "grid.pareto", (double)s->n_pareto);
    fprintf(f, "</div><div class=\"range\">time vs emissions</div></div>\n");
    if (s->n_entries) {
        const jc_sweep_entry *x = &s->entries[0];
        fprintf(f, "<div class=\"card\"><div class=\"label\">Rank 1 by %s</div><div class=\"big\">",
                jc_sweep_sort_name(s->sort));
        if (s->sort == JC_SWEEP_BY_ENERGY) jci_html_qty(f, "entries.0.energy_kwh.central", x->energy_kwh.central, jci_html_u_kwh);
        else if (s->sort == JC_SWEEP_BY_TIME) jci_html_qty(f, "entries.0.wall_hours.central", x->wall_hours.central, jci_html_u_h);
        else jci_html_qty(f, "entries.0.co2_kg.central", x->co2_kg.central, jci_html_u_kg);
        fprintf(f, "</div><div class=\"range\">");
        jci_html_esc_cut(f, x->device_id, 40);
        fprintf(f, " in ");
        jci_html_esc(f, x->region_code ? x->region_code : "(--ci)");
        fprintf(f, "</div></div>\n");
    }
    fprintf(f, "</div>\n");
    if (s->n_entries) {
        fprintf(f, "<section id=\"scatter\"><h2>Time against emissions</h2><p class=\"note\">Every estimated entry "
                   "(central case); hover a point for its device, region, precision and batch. The line joins the "
                   "Pareto front.</p>\n");
        jc_status st = svg_scatter(f, s);
        if (st) return st;
        fprintf(f, "</section>\n");

        fprintf(f, "<section id=\"front\"><h2>Pareto front</h2><p class=\"note\">Fastest first. Moving along the "
                   "front trades time for emissions; every other entry is beaten on both by one of these.</p>\n"
                   "<table>");
        sweep_head(f);
        fprintf(f, "<tbody>\n");
        size_t nf;
        const jc_sweep_entry **fr = front_by_time(s, &nf);
        if (!fr) return JC_ERR_NOMEM;
        for (size_t i = 0; i < nf; i++) sweep_row(f, s, (size_t)(fr[i] - s->entries));
        free(fr);
        fprintf(f, "</tbody></table></section>\n");

        size_t shown = top && top < s->n_entries ? top : s->n_entries;
        fprintf(f, "<section id=\"ranking\"><h2>Ranking by %s</h2><p class=\"note\">", jc_sweep_sort_name(s->sort));
        if (shown < s->n_entries)
            fprintf(f, "The first %zu of %zu entries (--csv and --json list them all). ", shown, s->n_entries);
        fprintf(f, "&#9733; marks the Pareto front.</p>\n<div class=\"scroll\"><table>");
        sweep_head(f);
        fprintf(f, "<tbody>\n");
        for (size_t i = 0; i < shown; i++) sweep_row(f, s, i);
        fprintf(f, "</tbody></table></div></section>\n");
    }
    if (s->n_skipped) {
        fprintf(f, "<section id=\"skipped\"><h2>Skipped</h2><p class=\"note\">Grid points that could not be "
                   "estimated, with what is missing; an empty device or region stands for all of them.</p>\n"
                   "<div class=\"scroll\"><table><thead><tr><th>device</th><th>region</th><th>prec</th>"
                   "<th class=\"n\">batch</th><th>reason</th></tr></thead><tbody>\n");
        for (size_t i = 0; i < s->n_skipped; i++) {
            const jc_sweep_entry *x = &s->skipped[i];
            fprintf(f, "<tr><td>");
            jci_html_esc(f, x->device_id ? x->device_id : "(every device)");
            fprintf(f, "</td><td>");
            jci_html_esc(f, x->region_code ? x->region_code : "(every region)");
            fprintf(f, "</td><td>%s</td><td class=\"n\">", x->precision ? x->precision : "");
            if (x->batch > 0) fprintf(f, "%s", FMT_N(x->batch));
            else fprintf(f, "all");
            fprintf(f, "</td><td class=\"src\">");
            jci_html_esc(f, x->reason);
            fprintf(f, "</td></tr>\n");
        }
        fprintf(f, "</tbody></table></div></section>\n");
    }
    jci_html_warn_box(f, "<b>Notes</b> (warnings of the estimates, each once)", s->notes, s->n_notes);
    jci_html_page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

