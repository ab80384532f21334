/*
 * estimate.c (report/html) - the HTML page of one estimate: headline
 * cards, warnings, where the energy goes, the low-central-high ranges,
 * emissions by component, energy per node, every figure, the
 * equivalences and the assumptions with their sources.  The frame, the
 * escaper and the charts are page.c (html_int.h).
 */
#include "report/html/html_int.h"
#include "report/rjson.h"
#include "joulecast/html.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- estimate ------------------------------------------------------------------------- */

static const char *origin_class(jc_origin o)
{
    return jc_origin_name(o);
}

typedef struct node_ix { size_t i; double e; } node_ix;

static int by_energy_desc(const void *a, const void *b)
{
    const node_ix *x = a, *y = b;
    if (x->e != y->e) return x->e > y->e ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* One assumption's row: key, what, value (with its range and a unit column
 * of its own where `full`; else the unit beside the value), origin tag and
 * source; the value's data key is PREFIX.I.value.central (.low, .high). */
static void assumption_row(FILE *f, const jc_assumption *a, const char *prefix, size_t i, int full)
{
    char k[160];
    fprintf(f, "<tr><td>");
    jci_html_esc(f, a->key);
    fprintf(f, "</td><td>");
    jci_html_esc(f, a->label);
    fprintf(f, "</td><td class=\"n\">");
    snprintf(k, sizeof k, "%s.%zu.value.central", prefix, i);
    jci_html_num(f, k, a->value.central);
    if (full && (a->value.low != a->value.central || a->value.high != a->value.central)) {
        fprintf(f, " <span class=\"src\">[");
        snprintf(k, sizeof k, "%s.%zu.value.low", prefix, i);
        jci_html_num(f, k, a->value.low);
        fprintf(f, "&#8211;");
        snprintf(k, sizeof k, "%s.%zu.value.high", prefix, i);
        jci_html_num(f, k, a->value.high);
        fprintf(f, "]</span>");
    }
    fprintf(f, full ? "</td><td>" : " ");
    jci_html_esc(f, a->unit);
    fprintf(f, "</td><td><span class=\"tag %s\">%s</span></td><td class=\"src\">", origin_class(a->origin),
            jc_origin_name(a->origin));
    jci_html_esc(f, a->source);
    fprintf(f, "</td></tr>\n");
}

void jci_html_assumptions_table(FILE *f, const jc_assumption *as, size_t n, const char *prefix)
{
    fprintf(f, "<div><table>\n<thead><tr><th>key</th><th>what</th><th class=\"n\">value</th>"
               "<th>unit</th><th>origin</th><th>source</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < n; i++) assumption_row(f, &as[i], prefix, i, 1);
    fprintf(f, "</tbody></table></div>\n");
}

/* The header (title, run line, work line), the headline cards and the
 * warnings. */
static void head_and_cards(FILE *f, const jc_estimate *e, const char *model)
{
    jci_html_page_begin(f, "joulecast estimate", model ? model : (e->flops_total > 0 ? "a job given by its FLOPs" : "a job"));
    jci_html_hardware_line(f, e);
    if (e->flops_per_pass > 0) {
        char a[48], b[48], c[48];
        fprintf(f, "<p class=\"sub\">work: %s FLOP per forward pass &#215; %s %s = %s FLOP</p>\n",
                fmt_si(a, sizeof a, e->flops_per_pass), fmt_num(b, sizeof b, e->passes),
                e->mode == JC_MODE_TRAINING ? (e->passes == 1 ? "step" : "steps") : e->passes == 1 ? "pass" : "passes",
                fmt_si(c, sizeof c, e->flops_total));
    }
    if (e->lower_bound)
        fprintf(f, "<p class=\"sub\"><b>Lower bound:</b> the model's count is partial "
                   "(--allow-partial), so every figure on this page is a lower bound.</p>\n");
    fprintf(f, "</header>\n<div class=\"cards\">\n");
    jci_html_card(f, "Energy, facility", "results.energy_facility_kwh", e->energy_facility_kwh, jci_html_u_kwh);
    jci_html_card(f, "Emissions, location-based", "results.co2_location_kg", e->co2_kg, jci_html_u_kg);
    jci_html_card(f, "Wall time", "results.wall_hours", e->wall_hours, jci_html_u_h);
    jci_html_card(f, "Device-hours", "results.device_hours", e->device_hours, jci_html_u_devh);
    fprintf(f, "</div>\n");

    jci_html_warn_box(f, "<b>Warnings</b>", e->warnings, e->n_warnings);
}

/* What bounds a node: 0 compute, 1 memory, 2 launch (the bound_* tables). */
static int bound_of(const jc_est_node *x)
{
    return x->launch_bound ? 2 : x->memory_bound ? 1 : 0;
}

static const char *const bound_label[] = {"compute-bound", "memory-bound", "launch-bound"};
static const char *const bound_color[] = {"var(--dyn)", "var(--idle)", "var(--launch)"};
/* what each share of the time answers to: the options that move it */
static const char *const bound_lever[] = {
    "the arithmetic units set this time: a lower precision with a higher peak on this device "
    "(<code>--precision</code>), or a device with a higher peak, shortens it",
    "moving bytes sets this time: a lower precision moves fewer (<code>--precision</code>), fused kernels "
    "keep intermediates on chip (<code>--runtime torch-compile</code> or <code>tensorrt</code>), a device "
    "with more memory bandwidth is faster",
    "each kernel takes at least the launch floor, the device waiting on the host, whatever its size: a "
    "larger batch (<code>--batch</code>) does more work per launch, a compiled runtime "
    "(<code>--runtime torch-compile</code> or <code>tensorrt</code>) launches fewer, fused kernels",
};

/* What sets the time: one pass's device time split by what bounds each
 * node, and the levers of each share, largest first (shares under 10%
 * have none listed). */
static void bound_section(FILE *f, const jc_estimate *e)
{
    double t[3] = {0, 0, 0}, tot = 0;
    for (size_t i = 0; i < e->n_nodes; i++) t[bound_of(&e->nodes[i])] += e->nodes[i].time_s;
    for (int k = 0; k < 3; k++) tot += t[k];
    if (!(tot > 0)) return;
    seg sg[3];
    for (int k = 0; k < 3; k++) sg[k] = (seg){bound_label[k], t[k], NULL, bound_color[k]};
    fprintf(f, "<section id=\"bound\"><h2>What sets the time</h2><p class=\"note\">Device time of one %s on "
               "one device (central), by what bounds each node: the arithmetic units (compute), memory "
               "bandwidth (memory), or the kernel-launch floor (launch).</p>\n",
            e->mode == JC_MODE_TRAINING ? "training step's forward and backward pass" : "forward pass");
    jci_html_stack(f, sg, 3, jci_html_u_s);
    int order[3] = {0, 1, 2};
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (t[order[b]] > t[order[a]]) {
                int x = order[a];
                order[a] = order[b];
                order[b] = x;
            }
    fprintf(f, "<ul class=\"levers\">");
    for (int a = 0; a < 3; a++)
        if (t[order[a]] >= 0.1 * tot)
            fprintf(f, "<li><b>%.0f%% %s</b>: %s.</li>", 100 * t[order[a]] / tot, bound_label[order[a]],
                    bound_lever[order[a]]);
    fprintf(f, "</ul>\n</section>\n");
}

/* What a training run assumed (issue 39): its runtime profile and
 * training stack, precision, layout, fabric and goodput, each the
 * assumption of that key with where it came from (rows of the same
 * assumptions the JSON lists: their data-keys are the JSON's), in this
 * order; with the training step model also the fabric in words, the
 * goodput's rule and one step by mechanism (train_step.parts). */
static const char *const TRAIN_KEYS[] = {
    "runtime", "train.stack", "precision", "train.fp8_peak", "train.int8_peak",
    "parallel.tp", "parallel.pp", "parallel.dp", "train.cp", "train.ep", "train.zero", "parallel.micro_batches",
    "batch.device", "parallel.per_node", "host.scaleup_devices", "host.scaleup_gbs", "host.scaleout_gbs",
    "device.node_devices", "device.interconnect_gbs", "device.node_network_gbs", "parallel.overhead",
    "train.goodput"};

static void training_rows(FILE *f, const jc_estimate *e)
{
    for (size_t k = 0; k < sizeof TRAIN_KEYS / sizeof TRAIN_KEYS[0]; k++)
        for (size_t i = 0; i < e->n_assumptions; i++)
            if (!strcmp(e->assumptions[i].key, TRAIN_KEYS[k])) {
                assumption_row(f, &e->assumptions[i], "assumptions", i, 0);
                break;
            }
}

static void training_section(FILE *f, const jc_estimate *e)
{
    if (e->mode != JC_MODE_TRAINING) return;
    const jc_train_step *t = e->train_step;
    fprintf(f, "<section id=\"training\"><h2>What the training run assumed</h2><p class=\"note\">The runtime "
               "profile and training stack, precision, layout, fabric and goodput the estimate took, each with "
               "where it came from (give --runtime, --precision, --tp / --pp / --zero, --host or --goodput to "
               "set one).</p>\n");
    fprintf(f, "<div><table>\n<thead><tr><th>key</th><th>what</th><th class=\"n\">value</th><th>origin</th>"
               "<th>source</th></tr></thead>\n<tbody>\n");
    training_rows(f, e);
    fprintf(f, "</tbody></table></div>\n");
    if (t) {
        fprintf(f, "<p><b>Fabric</b>: ");
        jci_html_esc(f, t->fabric);
        fprintf(f, ".</p>\n<p><b>Goodput</b>: ");
        jci_html_esc(f, t->why_goodput);
        fprintf(f, ".</p>\n<div><table>\n<thead><tr><th>one step, one device (central)</th><th class=\"n\">s</th>"
                   "<th>what</th></tr></thead>\n<tbody>\n");
        for (size_t i = 0; i < t->n_parts; i++) {
            char key[64];
            snprintf(key, sizeof key, "train_step.parts.%zu.s", i);
            fprintf(f, "<tr><td>");
            jci_html_esc(f, t->parts[i].name);
            fprintf(f, "</td><td class=\"n\">");
            jci_html_num(f, key, t->parts[i].s);
            fprintf(f, "</td><td>");
            jci_html_esc(f, t->parts[i].what);
            fprintf(f, "</td></tr>\n");
        }
        fprintf(f, "<tr><td>step</td><td class=\"n\">");
        jci_html_num(f, "train_step.step_s", t->step_s);
        fprintf(f, "</td><td>their sum</td></tr>\n</tbody></table></div>\n");
    }
    fprintf(f, "</section>\n");
}

/* The energy split: device dynamic, idle floor, host, facility overhead. */
void jci_html_energy_split(FILE *f, const jc_estimate *e)
{
    double overhead = e->energy_facility_kwh.central - e->energy_it_kwh.central;
    seg sg[] = {
        {"device dynamic", e->energy_dynamic_kwh.central, "results.energy_dynamic_kwh.central", "var(--dyn)"},
        {"device idle floor", e->energy_idle_kwh.central, "results.energy_idle_kwh.central", "var(--idle)"},
        {"host", e->energy_host_kwh.central, "results.energy_host_kwh.central", "var(--host)"},
        {"facility overhead (PUE)", overhead > 0 ? overhead : 0, NULL, "var(--pue)"},
    };
    fprintf(f, "<section id=\"split\"><h2>Where the energy goes</h2><p class=\"note\">Central case. Facility energy "
               "= (devices + host) &#215; PUE; the PUE part is the data centre's cooling and power-delivery "
               "overhead.</p>\n");
    jci_html_stack(f, sg, sizeof sg / sizeof sg[0], jci_html_u_kwh);
    fprintf(f, "</section>\n");
}

/* Low-central-high of energy, emissions, time and power. */
static void ranges_section(FILE *f, const jc_estimate *e)
{
    fprintf(f, "<section id=\"ranges\"><h2>Low &#8211; central &#8211; high</h2><p class=\"note\">Each row on its "
               "own scale, from 0 to its high end; the dot is the central estimate.</p>\n");
    rrow rr[] = {
        {"energy, facility", e->energy_facility_kwh, "results.energy_facility_kwh", jci_html_u_kwh},
        {"energy, devices", e->energy_device_kwh, "results.energy_device_kwh", jci_html_u_kwh},
        {"emissions, location-based", e->co2_kg, "results.co2_location_kg", jci_html_u_kg},
        {"wall time", e->wall_hours, "results.wall_hours", jci_html_u_h},
        {"average power per device", e->avg_power_w, "results.avg_power_w_per_device", NULL},
    };
    static const unit_step U_W[] = {{1e-3, "kW"}, {1, "W"}, {0, NULL}};
    rr[4].us = U_W;
    jci_html_ranges(f, rr, sizeof rr / sizeof rr[0]);
    fprintf(f, "</section>\n");
}

/* With --sensitivity: a tornado chart, one bar per ranged assumption from
 * the emissions with it alone at its low to those at its high (every
 * other input central), largest swing on top, about the central line;
 * then the table with each bound. */
static void sensitivity_section(FILE *f, const jc_estimate *e)
{
    if (!e->n_sensitivity) return;
    const int row = 24, top = 22, label_w = 300, right = 150, vw = 1060;
    double lo = e->co2_kg.central, hi = lo;
    for (size_t i = 0; i < e->n_sensitivity; i++) {
        const jc_sensitivity *r = &e->sensitivity[i];
        lo = fmin(lo, fmin(r->co2_low, r->co2_high));
        hi = fmax(hi, fmax(r->co2_low, r->co2_high));
    }
    if (!(hi > lo)) hi = lo + 1;
    const int plot_w = vw - label_w - right;
    const int h = top + (int)e->n_sensitivity * row + 8;
#define TX(v) (label_w + plot_w * ((v) - lo) / (hi - lo))
    fprintf(f, "<section id=\"sensitivity\"><h2>Which assumption moves the emissions</h2><p class=\"note\">Each "
               "bar: the location-based emissions (kgCO2e, central) with that assumption alone at its low and "
               "at its high, every other input central (--pin KEY=low / KEY=high); the line is the central "
               "estimate. Largest swing on top. The swings do not add up to the low&#8211;high range, which "
               "moves every input at once.</p>\n");
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart tornado\">\n", vw, h);
    for (size_t i = 0; i < e->n_sensitivity; i++) {
        const jc_sensitivity *r = &e->sensitivity[i];
        double y = top + (double)i * row, x1 = TX(fmin(r->co2_low, r->co2_high)),
               x2 = TX(fmax(r->co2_low, r->co2_high));
        char a[40], b[40], k[96];
        fprintf(f, "<g><title>");
        jci_html_esc(f, r->key);
        fprintf(f, ": %s to %s kgCO2e</title>\n<text x=\"%d\" y=\"%.1f\" font-size=\"12\" "
                   "text-anchor=\"end\">", fmt_num(a, sizeof a, r->co2_low), fmt_num(b, sizeof b, r->co2_high),
                label_w - 8, y + 15);
        jci_html_esc_cut(f, r->key, 40);
        fprintf(f, "</text>\n<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"16\" rx=\"2\" "
                   "fill=\"var(--loc)\"", x1, y + 3, x2 - x1 < 1 ? 1.0 : x2 - x1);
        snprintf(k, sizeof k, "sensitivity.%zu.co2_kg.swing", i);
        jci_html_dattr(f, k, fabs(r->co2_high - r->co2_low));
        fprintf(f, "/>\n<text x=\"%.2f\" y=\"%.1f\" font-size=\"11\">%s &#8594; %s</text>\n</g>\n",
                x2 + 6, y + 15, a, b);
    }
    double xc = TX(e->co2_kg.central);
    fprintf(f, "<line class=\"axis\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n"
               "<text x=\"%.2f\" y=\"14\" font-size=\"11\" text-anchor=\"middle\">central</text>\n</svg>\n",
            xc, top - 4, xc, h - 4, xc);
#undef TX
    fprintf(f, "<table><thead><tr><th>#</th><th>assumption</th><th class=\"n\">low</th><th class=\"n\">high</th>"
               "<th class=\"n\">kgCO2e at low</th><th class=\"n\">kgCO2e at high</th><th class=\"n\">swing</th>"
               "<th class=\"n\">kWh at low</th><th class=\"n\">kWh at high</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < e->n_sensitivity; i++) {
        const jc_sensitivity *r = &e->sensitivity[i];
        const char *fld[7] = {"low", "high", "co2_kg.at_low", "co2_kg.at_high", "co2_kg.swing",
                              "energy_facility_kwh.at_low", "energy_facility_kwh.at_high"};
        double v[7] = {r->low, r->high, r->co2_low, r->co2_high, fabs(r->co2_high - r->co2_low), r->kwh_low,
                       r->kwh_high};
        fprintf(f, "<tr><td class=\"n\">%zu</td><td>", i + 1);
        jci_html_esc(f, r->key);
        fprintf(f, "</td>");
        for (int j = 0; j < 7; j++) {
            char k[96];
            snprintf(k, sizeof k, "sensitivity.%zu.%s", i, fld[j]);
            fprintf(f, "<td class=\"n\">");
            jci_html_num(f, k, v[j]);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table></section>\n");
}

/* Emissions by component: bars and a table. */
void jci_html_emissions_section(FILE *f, const jc_estimate *e)
{
    fprintf(f, "<section id=\"emissions\"><h2>Emissions by component</h2><p class=\"note\">Bars: central; "
               "whiskers: low to high. Operational emissions are the facility energy times the grid's intensity; "
               "embodied emissions are the hardware's manufacturing share for the time used%s.</p>\n",
            e->has_embodied ? "" : " (not in this estimate: --embodied adds them when the device has an "
                                   "embodied-emissions figure in the database)");
    bar eb[3];
    size_t ne = 0;
    const unit_step *ku = jci_html_pick_unit(jci_html_u_kg, e->co2_kg.central);
    double kf = ku->factor;
    eb[ne++] = (bar){"operational, location-based", NULL, e->co2_kg.central * kf, e->co2_kg.low * kf,
                     e->co2_kg.high * kf, NULL, "var(--loc)"};
    if (e->has_market)
        eb[ne++] = (bar){"operational, market-based", NULL, e->co2_market_kg.central * kf,
                         e->co2_market_kg.low * kf, e->co2_market_kg.high * kf, NULL, "var(--mkt)"};
    if (e->has_embodied)
        eb[ne++] = (bar){"embodied (amortised)", NULL, e->co2_embodied_kg.central * kf,
                         e->co2_embodied_kg.low * kf, e->co2_embodied_kg.high * kf, NULL, "var(--emb)"};
    jci_html_hbars(f, eb, ne, ku->unit, 1060, 230, 0, 0);
    fprintf(f, "<table><thead><tr><th>component</th><th class=\"n\">low</th><th class=\"n\">central</th>"
               "<th class=\"n\">high</th><th>unit</th></tr></thead><tbody>\n");
    struct { const char *label, *key; const jc_range *r; int on; } er[] = {
        {"operational, location-based", "results.co2_location_kg", &e->co2_kg, 1},
        {"operational, market-based", "results.co2_market_kg", &e->co2_market_kg, e->has_market},
        {"embodied (amortised)", "results.co2_embodied_kg", &e->co2_embodied_kg, e->has_embodied},
    };
    for (size_t i = 0; i < 3; i++) {
        fprintf(f, "<tr><td>%s</td>", er[i].label);
        if (!er[i].on) {
            fprintf(f, "<td class=\"n\" colspan=\"3\">n/a (%s)</td><td></td></tr>\n",
                    i == 1 ? "no provider-published factor for this region"
                           : "not in this estimate: see --embodied");
            continue;
        }
        jci_html_range_cells(f, er[i].key, *er[i].r, NULL);
        fprintf(f, "<td>kgCO2e</td></tr>\n");
    }
    fprintf(f, "</tbody></table></section>\n");
}

void jci_html_cost_water_section(FILE *f, const jc_estimate *e)
{
    fprintf(f, "<section id=\"cost-water\"><h2>Cost and water</h2><p class=\"note\">Cost: instances x wall hours x "
               "the price per instance-hour, or facility kWh x the electricity price; water: on-site (IT kWh x the "
               "site's water usage effectiveness) and off-site (facility kWh x the water consumed per kWh "
               "generated). Unknown is n/a, never 0.</p>\n<table><thead><tr><th>figure</th><th class=\"n\">low</th>"
               "<th class=\"n\">central</th><th class=\"n\">high</th><th>unit</th><th>basis and source</th></tr>"
               "</thead><tbody>\n");
    struct { const char *label, *key, *unit, *src; const jc_range *r; int on; const char *why; } rows[] = {
        {"cost", "cost.total", e->cost_currency, e->cost_source, &e->cost, e->has_cost, e->cost_absent},
        {"water, on-site", "water.onsite_l", "L", e->wue_source, &e->water_onsite_l, !isnan(e->wue_l_per_kwh),
         "no water usage effectiveness known for the site (--wue)"},
        {"water, off-site", "water.offsite_l", "L", e->grid_water_source, &e->water_offsite_l,
         !isnan(e->grid_water_l_per_kwh), "no water per kWh generated known for the grid (--grid-water)"},
        {"water, total", "water.total_l", "L", e->water_basis, &e->water_l, e->has_water, e->water_absent},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fprintf(f, "<tr><td>%s</td>", rows[i].label);
        if (!rows[i].on) {
            fprintf(f, "<td class=\"n\" colspan=\"3\">n/a</td><td></td><td>");
            jci_html_esc(f, rows[i].why ? rows[i].why : "not known");
            fprintf(f, "</td></tr>\n");
            continue;
        }
        jci_html_range_cells(f, rows[i].key, *rows[i].r, NULL);
        fprintf(f, "<td>");
        jci_html_esc(f, rows[i].unit);
        fprintf(f, "</td><td>");
        if (i == 0) {
            char b[160];
            snprintf(b, sizeof b, "%s: %s %s%s%s; ", e->cost_basis, FMT_N(e->cost_rate), e->cost_rate_unit,
                     e->cost_date ? ", dated " : "", e->cost_date ? e->cost_date : "");
            jci_html_esc(f, b);
        }
        jci_html_esc(f, rows[i].src ? rows[i].src : "");
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</tbody></table></section>\n");
}

/* Every node's figures, in model order: the table of the estimate page and
 * of the serving page's decode step. */
void jci_html_node_table(FILE *f, const jc_est_node *nodes, size_t n, const char *prefix)
{
    double tot = 0, tt = 0;
    for (size_t i = 0; i < n; i++) {
        tot += nodes[i].energy_j;
        tt += nodes[i].time_s;
    }
    fprintf(f, "<div class=\"scroll\"><table>\n<thead><tr><th>#</th><th>node</th><th>op</th><th class=\"n\">FLOP</th>"
               "<th class=\"n\">bytes</th><th class=\"n\">time s</th><th class=\"n\">time %%</th><th class=\"n\">"
               "energy J</th><th class=\"n\">energy %%</th><th>bound</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < n; i++) {
        const jc_est_node *x = &nodes[i];
        char k[96];
        fprintf(f, "<tr><td class=\"n\">%zu</td><td class=\"name\">", i + 1);
        jci_html_esc(f, x->name);
        fprintf(f, "</td><td>");
        jci_html_esc(f, x->op);
        const char *fld[4] = {"flops", "bytes", "time_s", "energy_j"};
        double v[4] = {x->flops, x->bytes, x->time_s, x->energy_j};
        for (int j = 0; j < 4; j++) {
            snprintf(k, sizeof k, "%s.%zu.%s", prefix, i, fld[j]);
            fprintf(f, "</td><td class=\"n\">");
            jci_html_num(f, k, v[j]);
            if (j == 2) fprintf(f, "</td><td class=\"n\">%.2f", tt > 0 ? 100 * x->time_s / tt : 0);
        }
        fprintf(f, "</td><td class=\"n\">%.2f</td><td>%s</td></tr>\n", tot > 0 ? 100 * x->energy_j / tot : 0,
                rj_bound(x));
    }
    fprintf(f, "</tbody></table></div>");
}

/* Energy per node: the largest nodes as bars, then every node's figures. */
static jc_status nodes_section(FILE *f, const jc_estimate *e, size_t top_nodes)
{
    if (!e->n_nodes) return JC_OK;
    node_ix *ix = malloc(e->n_nodes * sizeof *ix);
    bar *nb = malloc((e->n_nodes + 1) * sizeof *nb);
    char (*keys)[48] = malloc((e->n_nodes + 1) * sizeof *keys);
    if (!ix || !nb || !keys) {
        free(ix);
        free(nb);
        free(keys);
        return JC_ERR_NOMEM;
    }
    for (size_t i = 0; i < e->n_nodes; i++) {
        ix[i].i = i;
        ix[i].e = e->nodes[i].energy_j;
    }
    qsort(ix, e->n_nodes, sizeof *ix, by_energy_desc);
    size_t top = top_nodes ? top_nodes : 15;
    if (top > e->n_nodes) top = e->n_nodes;
    size_t nbars = 0;
    for (size_t k = 0; k < top; k++) {
        const jc_est_node *x = &e->nodes[ix[k].i];
        snprintf(keys[nbars], sizeof keys[0], "nodes.%zu.energy_j", ix[k].i);
        nb[nbars] = (bar){x->name && *x->name ? x->name : "(unnamed)", x->op, x->energy_j, NAN, NAN,
                          keys[nbars], bound_color[bound_of(x)]};
        nbars++;
    }
    char other[80];
    if (top < e->n_nodes) {
        double rest = 0;
        for (size_t k = top; k < e->n_nodes; k++) rest += ix[k].e;
        snprintf(other, sizeof other, "other %zu nodes", e->n_nodes - top);
        nb[nbars++] = (bar){other, NULL, rest, NAN, NAN, NULL, "var(--pue)"};
    }
    fprintf(f, "<section id=\"nodes\"><h2>Energy per node</h2><p class=\"note\">Device energy of one forward "
               "pass on one device (central), the %zu largest of %zu counted nodes; the rest grouped.", top,
            e->n_nodes);
    int launch_all = 1;
    for (size_t k = 0; k < top; k++) launch_all &= e->nodes[ix[k].i].launch_bound;
    if (top > 2 && ix[top - 1].e >= ix[0].e * (1 - 1e-9))
        fprintf(f, " <b>The %zu largest take the same energy each%s</b>: no node stands out; what sets the time "
                   "above says what to change.", top, launch_all ? ", every one held at the kernel-launch floor" : "");
    fprintf(f, "</p>\n");
    jci_html_hbars(f, nb, nbars, "J", 1060, 330, top ? 1.15 * ix[0].e : 0, 0);
    fprintf(f, "<div class=\"legend\"><span><i style=\"background:var(--dyn)\"></i>compute-bound</span>"
               "<span><i style=\"background:var(--idle)\"></i>memory-bound</span>"
               "<span><i style=\"background:var(--launch)\"></i>launch-bound</span>"
               "<span><i style=\"background:var(--pue)\"></i>other nodes, grouped</span></div>\n</section>\n");

    /* a bounded page: past 10,000 nodes (about 5 MB of table) the table
     * stops there (estimate --json --per-node lists every node) */
    size_t rows = e->n_nodes > 10000 ? 10000 : e->n_nodes;
    fprintf(f, "<section id=\"node-table\"><h2>Per-node figures</h2><p class=\"note\">One forward pass, one "
               "device, central case, in graph order.");
    if (rows < e->n_nodes)
        fprintf(f, " The first %zu of %zu nodes; <code>estimate --json --per-node</code> lists every node.", rows,
                e->n_nodes);
    fprintf(f, "</p>\n");
    jci_html_node_table(f, e->nodes, rows, "nodes");
    fprintf(f, "</section>\n");
    free(ix);
    free(nb);
    free(keys);
    return JC_OK;
}

/* Every figure of the result with its range. */
void jci_html_figures_section(FILE *f, const jc_estimate *e)
{
    fprintf(f, "<section id=\"figures\"><h2>All figures</h2>\n<table><thead><tr><th>figure</th><th class=\"n\">low"
               "</th><th class=\"n\">central</th><th class=\"n\">high</th><th>unit</th></tr></thead><tbody>\n");
    struct { const char *label, *key, *unit; const jc_range *r; int on; } fr[] = {
        {"wall time", "results.wall_hours", "h", &e->wall_hours, 1},
        {"device-hours", "results.device_hours", "h", &e->device_hours, 1},
        {"energy, devices", "results.energy_device_kwh", "kWh", &e->energy_device_kwh, 1},
        {"&#160;&#160;idle floor", "results.energy_idle_kwh", "kWh", &e->energy_idle_kwh, 1},
        {"&#160;&#160;dynamic (above idle)", "results.energy_dynamic_kwh", "kWh", &e->energy_dynamic_kwh, 1},
        {"energy, host", "results.energy_host_kwh", "kWh", &e->energy_host_kwh, 1},
        {"energy, IT (devices + host)", "results.energy_it_kwh", "kWh", &e->energy_it_kwh, 1},
        {"energy, facility (IT &#215; PUE)", "results.energy_facility_kwh", "kWh", &e->energy_facility_kwh, 1},
        {"emissions, location-based", "results.co2_location_kg", "kgCO2e", &e->co2_kg, 1},
        {"implied utilisation of dense peak", "results.implied_utilization", "", &e->implied_utilization,
         e->implied_utilization.central > 0},
        {"average power per device", "results.avg_power_w_per_device", "W", &e->avg_power_w, 1},
        {"energy per sample (facility)", "results.j_per_sample", "J", &e->j_per_sample, e->j_per_sample.central > 0},
        {"samples per kWh", "results.samples_per_kwh", "", &e->samples_per_kwh, e->samples_per_kwh.central > 0},
        {"energy per token (facility)", "results.j_per_token", "J", &e->j_per_token, e->j_per_token.central > 0},
    };
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++) {
        if (!fr[i].on) continue;
        fprintf(f, "<tr><td>%s</td>", fr[i].label);
        jci_html_range_cells(f, fr[i].key, *fr[i].r, NULL);
        fprintf(f, "<td>%s</td></tr>\n", fr[i].unit);
    }
    fprintf(f, "</tbody></table></section>\n");
}

/* The equivalences and every assumption with its source. */
void jci_html_sources_sections(FILE *f, const jc_estimate *e)
{
    if (e->n_equivalences) {
        fprintf(f, "<section id=\"equivalences\"><h2>Equivalent to</h2><p class=\"note\">Of the central "
                   "location-based emissions; each constant with its source.</p>\n");
        jci_html_assumptions_table(f, e->equivalences, e->n_equivalences, "equivalences");
        fprintf(f, "</section>\n");
    }
    fprintf(f, "<section id=\"assumptions\"><h2>Assumptions</h2><p class=\"note\">Every number the estimate "
               "used, with its origin: a user option, a hardware-database entry with its file, line and "
               "publication, the model's count, a derived value or a documented default.</p>\n");
    jci_html_assumptions_table(f, e->assumptions, e->n_assumptions, "assumptions");
    fprintf(f, "</section>\n");
}

jc_status jc_report_estimate_html(const jc_estimate *e, const char *model, size_t top_nodes, FILE *f)
{
    if (!e || !f) return JC_ERR_USAGE;
    head_and_cards(f, e, model);
    bound_section(f, e);
    training_section(f, e);
    jci_html_energy_split(f, e);
    jci_html_measured_section(f, e);
    ranges_section(f, e);
    jci_html_emissions_section(f, e);
    jci_html_cost_water_section(f, e);
    sensitivity_section(f, e);
    jc_status st = nodes_section(f, e, top_nodes);
    if (st) return st;
    jci_html_figures_section(f, e);
    jci_html_sources_sections(f, e);
    jci_html_page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
