/*
 * compare.c (report/html) - the HTML page comparing several models under
 * one job: a bar chart per figure, the table with ratios against the
 * first model, and each model's notes and warnings.  The figures are one
 * table per kind of comparison (models under one job; LLM serving,
 * compare --generate), read through getters; the frame, the escaper and
 * the charts are page.c (html_int.h).
 */
#include "report/html/html_int.h"
#include "joulecast/serving.h"
#include "joulecast/sweep.h"
#include "joulecast/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the figures ------------------------------------------------------------------- */

static const jc_range NA = {NAN, NAN, NAN};

static jc_range one(double v) { jc_range r = {v, v, v}; return r; }
static jc_range g_macs(const jc_compare_item *x) { return x->macs >= 0 ? one((double)x->macs) : NA; }
static jc_range g_params(const jc_compare_item *x) { return x->params >= 0 ? one((double)x->params) : NA; }
static jc_range g_wall(const jc_compare_item *x) { return x->est->wall_hours; }
static jc_range g_kwh(const jc_compare_item *x) { return x->est->energy_facility_kwh; }
static jc_range g_co2(const jc_compare_item *x) { return x->est->co2_kg; }
static jc_range g_jps(const jc_compare_item *x) { return x->est->j_per_sample.central > 0 ? x->est->j_per_sample : NA; }
static jc_range g_ttft(const jc_compare_item *x) { return x->serving->ttft_s; }
static jc_range g_itl(const jc_compare_item *x) { return x->serving->itl_s; }
static jc_range g_tpsd(const jc_compare_item *x) { return x->serving->tokens_per_s_per_device; }
static jc_range g_jtd(const jc_compare_item *x) { return x->serving->j_per_output_token_device; }
static jc_range g_jt(const jc_compare_item *x) { return x->serving->j_per_output_token; }
static jc_range g_jr(const jc_compare_item *x) { return x->serving->j_per_request; }

/* One figure: its chart (title NULL: table only), its column, its JSON
 * key under models.<i> (a count is the number itself, a range has
 * .central), and whether the JSON gives its ratio to the first model. */
typedef struct fig {
    const char *title, *note, *unit, *col, *key;
    int is_count, ratio;
    jc_range (*get)(const jc_compare_item *);
} fig;

static const fig model_figs[] = {
    {"MACs per forward pass", "Counted from the model at its batch.", "", "MACs", "macs", 1, 1, g_macs},
    {"Parameters", "Counted from the model at its batch.", "", "params", "params", 1, 1, g_params},
    {"Wall time", NULL, "h", "wall h", "wall_hours", 0, 1, g_wall},
    {"Energy, facility", NULL, "kWh", "facility kWh", "energy_kwh", 0, 1, g_kwh},
    {"Emissions, location-based", NULL, "kgCO2e", "kgCO2e", "co2_kg", 0, 1, g_co2},
    {"Energy per sample (facility)", NULL, "J", "J/sample", "j_per_sample", 0, 1, g_jps},
};

static const fig serving_figs[] = {
    {NULL, NULL, "", "params", "params", 1, 1, g_params},
    {"Time to first token", NULL, "s", "TTFT s", "ttft_s", 0, 1, g_ttft},
    {"Inter-token latency", NULL, "s", "ITL s", "itl_s", 0, 1, g_itl},
    {"Output tokens/s per device", NULL, "tok/s", "tok/s/device", "tokens_per_s_per_device", 0, 1, g_tpsd},
    {"Energy per output token, devices", NULL, "J", "J/token, devices", "j_per_output_token_device", 0, 1, g_jtd},
    {"Energy per output token, facility", NULL, "J", "J/token, facility", "j_per_output_token", 0, 1, g_jt},
    {NULL, NULL, "J", "J/request", "j_per_request", 0, 1, g_jr},
    {"Energy, facility", NULL, "kWh", "facility kWh", "energy_kwh", 0, 1, g_kwh},
    {"Emissions, location-based", NULL, "kgCO2e", "kgCO2e", "co2_kg", 0, 1, g_co2},
};

static void data_key(char *k, size_t cap, size_t i, const fig *g)
{
    if (g->is_count) snprintf(k, cap, "models.%zu.%s", i, g->key);
    else snprintf(k, cap, "models.%zu.%s.central", i, g->key);
}

/* A bar chart per figure that has a title. */
static jc_status charts(FILE *f, const jc_compare_item *items, size_t n, const fig *figs, size_t nf)
{
    static const char *const palette[] = {"#1f6feb", "#e4572e", "#2e8b57", "#8e6bbf", "#f0a030", "#17a2b8",
                                          "#c2185b", "#6d4c41"};
    bar *b = malloc(n * sizeof *b);
    char (*keys)[96] = malloc(n * sizeof *keys);
    if (!b || !keys) {
        free(b);
        free(keys);
        return JC_ERR_NOMEM;
    }
    fprintf(f, "<div class=\"grid2\">\n");
    for (size_t k = 0; k < nf; k++) {
        const fig *g = &figs[k];
        if (!g->title) continue;
        size_t nb = 0;
        for (size_t i = 0; i < n; i++) {
            jc_range r = g->get(&items[i]);
            if (isnan(r.central)) continue;
            data_key(keys[nb], sizeof keys[0], i, g);
            b[nb] = (bar){items[i].label, NULL, r.central, g->is_count ? NAN : r.low, g->is_count ? NAN : r.high,
                          keys[nb], palette[i % 8]};
            nb++;
        }
        fprintf(f, "<section><h2>%s</h2><p class=\"note\">%s</p>\n", g->title,
                g->note ? g->note : "Bars: central; whiskers: low to high.");
        if (nb) jci_html_hbars(f, b, nb, g->unit, 520, 170, 0, g->is_count);
        else fprintf(f, "<p class=\"note\">n/a for every model</p>\n");
        fprintf(f, "</section>\n");
    }
    fprintf(f, "</div>\n");
    free(b);
    free(keys);
    return JC_OK;
}

/* One figure's cell: the value, and its ratio to the first model's. */
static void cell(FILE *f, const jc_compare_item *items, size_t i, const fig *g)
{
    char k[96];
    double v = g->get(&items[i]).central, base = g->get(&items[0]).central;
    fprintf(f, "<td class=\"n\">");
    if (isnan(v)) {
        fprintf(f, "n/a</td>");
        return;
    }
    data_key(k, sizeof k, i, g);
    jci_html_num(f, k, v);
    if (i > 0 && g->ratio && base > 0) {
        snprintf(k, sizeof k, "models.%zu.ratio.%s", i, g->key);
        fprintf(f, "<br><span class=\"src\"><span class=\"num\"");
        jci_html_dattr(f, k, v / base);
        fprintf(f, ">%s</span>&#215;</span>", FMT_N(v / base));
    }
    fprintf(f, "</td>");
}

/* A serving model's layout: devices, tensor parallel, running sequences. */
static void layout_cell(FILE *f, const jc_serving *sv, size_t i)
{
    char k[96];
    fprintf(f, "<td class=\"n\">");
    snprintf(k, sizeof k, "models.%zu.devices", i);
    jci_html_inum(f, k, sv->devices);
    fprintf(f, " dev, tp ");
    snprintf(k, sizeof k, "models.%zu.tp", i);
    jci_html_inum(f, k, sv->tp);
    fprintf(f, "<br>");
    snprintf(k, sizeof k, "models.%zu.concurrency", i);
    jci_html_inum(f, k, sv->concurrency);
    fprintf(f, " seq%s</td>", sv->memory_limited ? " (KV-bound)" : "");
}

/* The side-by-side table: model, then batch, device and region (one job
 * over models) or the layout (serving: device and region are the page's
 * header), then the figures. */
static void table(FILE *f, const jc_compare_item *items, size_t n, const fig *figs, size_t nf, int serving)
{
    fprintf(f, "<section id=\"table\"><h2>Side by side</h2><p class=\"note\">Ratios against the first model, ");
    jci_html_esc(f, items[0].label);
    fprintf(f, ".</p>\n<table><thead><tr><th>model</th>%s",
            serving ? "<th class=\"n\">layout</th>" : "<th class=\"n\">batch</th><th>device</th><th>region</th>");
    for (size_t c = 0; c < nf; c++) fprintf(f, "<th class=\"n\">%s</th>", figs[c].col);
    fprintf(f, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < n; i++) {
        const jc_compare_item *x = &items[i];
        char k[96];
        fprintf(f, "<tr><td class=\"name\">");
        jci_html_esc(f, x->label);
        if (x->partial) fprintf(f, " <span class=\"tag derived\">partial count</span>");
        fprintf(f, "</td>");
        if (serving) {
            layout_cell(f, x->serving, i);
        } else {
            fprintf(f, "<td class=\"n\">");
            if (x->batch > 0) {
                snprintf(k, sizeof k, "models.%zu.batch", i);
                jci_html_inum(f, k, x->batch);
            } else {
                fprintf(f, "-");
            }
            fprintf(f, "</td><td>");
            jci_html_esc(f, x->est->device_id);
            fprintf(f, "</td><td>");
            jci_html_esc(f, x->est->region_code ? x->est->region_code : "(--ci)");
            fprintf(f, "</td>");
        }
        for (size_t c = 0; c < nf; c++) cell(f, items, i, &figs[c]);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table></section>\n");
}

/* Each model's note and warnings, under its name. */
static void notes(FILE *f, const jc_compare_item *items, size_t n)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) any |= items[i].note != NULL || items[i].est->n_warnings > 0;
    if (!any) return;
    fprintf(f, "<div class=\"warn\"><b>Notes</b><ul>\n");
    for (size_t i = 0; i < n; i++) {
        size_t nw = items[i].est->n_warnings;
        for (size_t k = 0; k < nw + 1; k++) {
            const char *t = k == 0 ? items[i].note : items[i].est->warnings[k - 1];
            if (!t) continue;
            fprintf(f, "<li><b>");
            jci_html_esc(f, items[i].label);
            fprintf(f, "</b>: ");
            jci_html_esc(f, t);
            fprintf(f, "</li>\n");
        }
    }
    fprintf(f, "</ul></div>\n");
}

jc_status jc_report_compare_html(const jc_compare_item *items, size_t n, FILE *f)
{
    if (!items || !n || !f) return JC_ERR_USAGE;
    int serving = items[0].serving != NULL;
    for (size_t i = 0; i < n; i++)
        if (!items[i].est || !items[i].label || (items[i].serving != NULL) != serving) return JC_ERR_USAGE;
    const fig *figs = serving ? serving_figs : model_figs;
    size_t nf = serving ? sizeof serving_figs / sizeof serving_figs[0] : sizeof model_figs / sizeof model_figs[0];
    char title[80];
    snprintf(title, sizeof title, serving ? "%zu models served, one workload" : "%zu models, one job", n);
    jci_html_page_begin(f, "joulecast compare", title);
    jci_html_hardware_line(f, items[0].est);
    fprintf(f, "</header>\n");
    jc_status st = charts(f, items, n, figs, nf);
    if (st) return st;
    table(f, items, n, figs, nf, serving);
    notes(f, items, n);
    jci_html_page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
