/*
 * compare.c (report/html) - the HTML page comparing several models under
 * one job: a bar chart per figure (MACs, parameters, time, energy,
 * emissions, energy per sample), the table and each model's warnings.  The
 * frame, the escaper and the charts are page.c (html_int.h).
 */
#include "report/html/html_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- compare ------------------------------------------------------------------------ */

jc_status jc_report_compare_html(const jc_compare_item *items, size_t n, FILE *f)
{
    if (!items || !n || !f) return JC_ERR_USAGE;
    for (size_t i = 0; i < n; i++)
        if (!items[i].est || !items[i].label) return JC_ERR_USAGE;
    const jc_estimate *e0 = items[0].est;
    char title[80];
    snprintf(title, sizeof title, "%zu models, one job", n);
    jci_html_page_begin(f, "joulecast compare", title);
    jci_html_hardware_line(f, e0);
    fprintf(f, "</header>\n");

    static const char *const palette[] = {"#1f6feb", "#e4572e", "#2e8b57", "#8e6bbf", "#f0a030", "#17a2b8",
                                          "#c2185b", "#6d4c41"};
    struct { const char *title, *key, *unit; int is_count; } figs[] = {
        {"MACs per forward pass", "macs", "", 1},
        {"Parameters", "params", "", 1},
        {"Wall time", "wall_hours", "h", 0},
        {"Energy, facility", "energy_kwh", "kWh", 0},
        {"Emissions, location-based", "co2_kg", "kgCO2e", 0},
        {"Energy per sample (facility)", "j_per_sample", "J", 0},
    };
    bar *b = malloc(n * sizeof *b);
    char (*keys)[64] = malloc(n * sizeof *keys);
    if (!b || !keys) {
        free(b);
        free(keys);
        return JC_ERR_NOMEM;
    }
    fprintf(f, "<div class=\"grid2\">\n");
    for (size_t k = 0; k < sizeof figs / sizeof figs[0]; k++) {
        size_t nb = 0;
        for (size_t i = 0; i < n; i++) {
            const jc_estimate *e = items[i].est;
            double v = NAN, lo = NAN, hi = NAN;
            switch (k) {
            case 0: v = items[i].macs >= 0 ? (double)items[i].macs : NAN; break;
            case 1: v = items[i].params >= 0 ? (double)items[i].params : NAN; break;
            case 2: v = e->wall_hours.central; lo = e->wall_hours.low; hi = e->wall_hours.high; break;
            case 3: v = e->energy_facility_kwh.central; lo = e->energy_facility_kwh.low;
                    hi = e->energy_facility_kwh.high; break;
            case 4: v = e->co2_kg.central; lo = e->co2_kg.low; hi = e->co2_kg.high; break;
            case 5: if (e->j_per_sample.central > 0) { v = e->j_per_sample.central; lo = e->j_per_sample.low;
                    hi = e->j_per_sample.high; } break;
            }
            if (isnan(v)) continue;
            if (figs[k].is_count) snprintf(keys[nb], sizeof keys[0], "models.%zu.%s", i, figs[k].key);
            else snprintf(keys[nb], sizeof keys[0], "models.%zu.%s.central", i, figs[k].key);
            b[nb] = (bar){items[i].label, NULL, v, lo, hi, keys[nb], palette[i % 8]};
            nb++;
        }
        fprintf(f, "<section><h2>%s</h2><p class=\"note\">%s</p>\n", figs[k].title,
                figs[k].is_count ? "Counted from the model at its batch." : "Bars: central; whiskers: low to high.");
        if (nb) jci_html_hbars(f, b, nb, figs[k].unit, 520, 170, 0, figs[k].is_count);
        else fprintf(f, "<p class=\"note\">n/a for every model</p>\n");
        fprintf(f, "</section>\n");
    }
    fprintf(f, "</div>\n");
    free(b);
    free(keys);

    fprintf(f, "<section id=\"table\"><h2>Side by side</h2><p class=\"note\">Ratios against the first model, ");
    jci_html_esc(f, items[0].label);
    fprintf(f, ".</p>\n<table><thead><tr><th>model</th><th class=\"n\">batch</th><th>device</th><th>region</th>"
               "<th class=\"n\">MACs</th><th class=\"n\">params</th><th class=\"n\">wall h</th>"
               "<th class=\"n\">facility kWh</th><th class=\"n\">kgCO2e</th><th class=\"n\">J/sample</th>"
               "</tr></thead><tbody>\n");
    static const char *const rkeys[] = {"macs", "params", "wall_hours", "energy_kwh", "co2_kg", "j_per_sample"};
    for (size_t i = 0; i < n; i++) {
        const jc_compare_item *x = &items[i];
        const jc_estimate *e = x->est;
        char k[96];
        fprintf(f, "<tr><td class=\"name\">");
        jci_html_esc(f, x->label);
        if (x->partial) fprintf(f, " <span class=\"tag derived\">partial count</span>");
        fprintf(f, "</td><td class=\"n\">");
        if (x->batch > 0) {
            snprintf(k, sizeof k, "models.%zu.batch", i);
            jci_html_inum(f, k, x->batch);
        } else {
            fprintf(f, "-");
        }
        fprintf(f, "</td><td>");
        jci_html_esc(f, e->device_id);
        fprintf(f, "</td><td>");
        jci_html_esc(f, e->region_code ? e->region_code : "(--ci)");
        fprintf(f, "</td>");
        double vals[6] = {x->macs >= 0 ? (double)x->macs : NAN, x->params >= 0 ? (double)x->params : NAN,
                          e->wall_hours.central, e->energy_facility_kwh.central, e->co2_kg.central,
                          e->j_per_sample.central > 0 ? e->j_per_sample.central : NAN};
        for (int c = 0; c < 6; c++) {
            fprintf(f, "<td class=\"n\">");
            if (isnan(vals[c])) {
                fprintf(f, "n/a");
            } else {
                if (c < 2) snprintf(k, sizeof k, "models.%zu.%s", i, rkeys[c]);
                else snprintf(k, sizeof k, "models.%zu.%s.central", i, rkeys[c]);
                jci_html_num(f, k, vals[c]);
                double base = c == 0 ? (double)items[0].macs : c == 1 ? (double)items[0].params
                            : c == 2 ? e0->wall_hours.central : c == 3 ? e0->energy_facility_kwh.central
                            : c == 4 ? e0->co2_kg.central : e0->j_per_sample.central;
                if (i > 0 && base > 0 && !(c < 2 && (items[0].macs < 0 || items[0].params < 0))) {
                    snprintf(k, sizeof k, "models.%zu.ratio.%s", i, rkeys[c]);
                    fprintf(f, "<br><span class=\"src\"><span class=\"num\"");
                    jci_html_dattr(f, k, vals[c] / base);
                    fprintf(f, ">%.3g</span>&#215;</span>", vals[c] / base);
                }
            }
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table></section>\n");
    int any = 0;
    for (size_t i = 0; i < n; i++) any |= items[i].note != NULL || items[i].est->n_warnings > 0;
    if (any) {
        fprintf(f, "<div class=\"warn\"><b>Notes</b><ul>\n");
        for (size_t i = 0; i < n; i++) {
            if (items[i].note) {
                fprintf(f, "<li><b>");
                jci_html_esc(f, items[i].label);
                fprintf(f, "</b>: ");
                jci_html_esc(f, items[i].note);
                fprintf(f, "</li>\n");
            }
            for (size_t k = 0; k < items[i].est->n_warnings; k++) {
                fprintf(f, "<li><b>");
                jci_html_esc(f, items[i].label);
                fprintf(f, "</b>: ");
                jci_html_esc(f, items[i].est->warnings[k]);
                fprintf(f, "</li>\n");
            }
        }
        fprintf(f, "</ul></div>\n");
    }
    jci_html_page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
