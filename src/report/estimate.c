/*
 * estimate.c (report) - renders a jc_estimate as text, JSON and CSV.
 * Formatting only: every number comes from the estimate; the JSON keys
 * are documented in docs/json-schemas.md ("estimate").
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "report/rjson.h"
#include "joulecast/hwdb.h"   /* e->region, e->device */
#include "joulecast/trace.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The grid zone the estimate's region draws from (a cloud region's, or a
 * state's where one zone serves most of it), or NULL. */
static const char *grid_zone(const jc_estimate *e)
{
    return e->region && e->region->grid_region ? e->region->grid_region->code : NULL;
}

static void row(FILE *f, const char *label, jc_range r, const char *unit)
{
    char a[40], b[40], c[40];
    fprintf(f, "  %-34s %14s %14s %14s  %s\n", label, fmt_num(a, sizeof a, r.low),
            fmt_num(b, sizeof b, r.central), fmt_num(c, sizeof c, r.high), unit);
}

static int exact(jc_range r)
{
    return r.low == r.central && r.central == r.high;
}

static void pct_err(char *b, size_t cap, double pred, double meas)
{
    if (isfinite(pred) && isfinite(meas) && meas > 0) snprintf(b, cap, "%+.1f%%", 100 * (pred - meas) / meas);
    else snprintf(b, cap, "n/a");
}

/* The measured run and the model's prediction of it, side by side. */
static void measured_text(const jc_estimate *e, FILE *f)
{
    const jc_trace *t = e->trace;
    char a[40], b[40], c[40], d[40], p1[32], p2[32];
    fprintf(f, "\nmeasured   %s (%s%s%s%s%s): %s energy %s kWh over %s h replaces the model's; %s\n", t->path,
            t->format_label, t->start[0] ? ", " : "", t->start, t->end[0] ? " to " : "", t->end, e->measured_scope,
            fmt_num(a, sizeof a, e->measured_kwh), fmt_num(b, sizeof b, e->measured_hours),
            !strcmp(e->measured_scope, "device") ? "the host term is modelled; PUE and grid intensity applied"
            : !strcmp(e->measured_scope, "host") ? "the devices are modelled; PUE and grid intensity applied"
                                                 : "PUE and grid intensity applied");
    double meas_dev = !strcmp(e->measured_scope, "host") ? NAN : e->energy_device_kwh.central;
    pct_err(p1, sizeof p1, e->predicted_device_kwh, meas_dev);
    pct_err(p2, sizeof p2, e->predicted_hours, e->measured_hours);
    fprintf(f, "prediction the model alone: device energy %s kWh (measured %s), wall time %s h (measured %s); "
               "error of the prediction: %s energy, %s time\n",
            fmt_num(a, sizeof a, e->predicted_device_kwh), fmt_num(b, sizeof b, meas_dev), fmt_num(c, sizeof c, e->predicted_hours),
            fmt_num(d, sizeof d, e->measured_hours), p1, p2);
}

/* Widest node name shown in full; longer ones keep their start and end
 * around "...". */
#define NODE_NAME_MAX 60

/* Bytes of s that fit in at most `chars` characters, cut at a character
 * boundary (from the start when from_end is 0, else of the tail). */
static size_t utf8_prefix(const char *s, size_t chars)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t used = 0;
    while (p[used] && chars--) {
        size_t k = jci_utf8_len(p + used);
        used += k ? k : 1;
    }
    return used;
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; n++) {
        size_t k = jci_utf8_len(p);
        p += k ? k : 1;
    }
    return n;
}

/* The node name in at most NODE_NAME_MAX characters: whole, or its first
 * and last characters around "..." (never a silent cut). */
static const char *node_name(char *buf, size_t cap, const char *name)
{
    size_t n = utf8_chars(name);
    if (n <= NODE_NAME_MAX) {
        snprintf(buf, cap, "%s", name);
        return buf;
    }
    size_t head = (NODE_NAME_MAX - 3) / 2, tail = NODE_NAME_MAX - 3 - head;
    size_t hb = utf8_prefix(name, head), skip = utf8_prefix(name, n - tail);
    snprintf(buf, cap, "%.*s...%s", (int)hb, name, name + skip);
    return buf;
}

static const jc_est_node *sort_base;
static int cmp_energy(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    double x = sort_base[i].energy_j, y = sort_base[j].energy_j;
    if (x != y) return x < y ? 1 : -1;
    return i < j ? -1 : i > j;   /* ties in graph order */
}

/* The per-node table: the `top` nodes of most energy (0: every node),
 * most first, then one line for the rest. */
static jc_status nodes_text(const jc_estimate *e, FILE *f, int top)
{
    size_t n = e->n_nodes, *idx = malloc(n * sizeof *idx);
    if (!idx) return JC_ERR_NOMEM;
    double tt = 0, te = 0;
    for (size_t i = 0; i < n; i++) {
        idx[i] = i;
        tt += e->nodes[i].time_s;
        te += e->nodes[i].energy_j;
    }
    sort_base = e->nodes;
    qsort(idx, n, sizeof *idx, cmp_energy);
    size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
    int w = 4;
    char nm[4 * NODE_NAME_MAX + 8];
    for (size_t k = 0; k < shown; k++) {
        int c = (int)utf8_chars(node_name(nm, sizeof nm, e->nodes[idx[k]].name));
        if (c > w) w = c;
    }
    if (shown < n)
        fprintf(f, "\nper node: the %zu of %zu nodes with the most energy (one forward pass, one device, central)\n",
                shown, n);
    else
        fprintf(f, "\nper node: all %zu nodes, most energy first (one forward pass, one device, central)\n", n);
    fprintf(f, "  %-*s %-18s %12s %7s %12s %7s  %s\n", w, "node", "op", "time s", "time%", "energy J",
            "energy%", "bound");
    for (size_t k = 0; k < shown; k++) {
        const jc_est_node *x = &e->nodes[idx[k]];
        node_name(nm, sizeof nm, x->name);
        /* pad by characters, not bytes */
        int pad = w - (int)utf8_chars(nm);
        fprintf(f, "  %s%*s %-18.18s %12s %6.2f%% %12s %6.2f%%  %s\n", nm, pad, "", x->op, FMT_N(x->time_s),
                tt > 0 ? 100 * x->time_s / tt : 0, FMT_N(x->energy_j), te > 0 ? 100 * x->energy_j / te : 0,
                rj_bound(x));
    }
    if (shown < n) {
        double rt = 0, re = 0;
        for (size_t k = shown; k < n; k++) {
            rt += e->nodes[idx[k]].time_s;
            re += e->nodes[idx[k]].energy_j;
        }
        fprintf(f, "  ... %zu more nodes: %s s (%.2f%% of the time), %s J (%.2f%% of the energy); "
                   "--top 0 lists all, --json always does\n", n - shown, FMT_N(rt), tt > 0 ? 100 * rt / tt : 0, FMT_N(re),
                te > 0 ? 100 * re / te : 0);
    }
    free(idx);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* The training step model's layout, step and utilisation (e->train_step). */
static void train_step_text(const jc_estimate *e, FILE *f)
{
    const jc_train_step *t = e->train_step;
    char b1[64], b2[64];
    fprintf(f, "\ntraining layout (%s, %s: %s parameters, %s active per token)\n", t->arch, t->model_type,
            fmt_si(b1, sizeof b1, t->params_total), fmt_si(b2, sizeof b2, t->params_active));
    const struct { const char *name; double v; const char *why; } rows[] = {
        {"tensor parallel", t->tp, t->why_tp},   {"pipeline stages", t->pp, t->why_pp},
        {"data parallel", t->dp, t->why_dp},     {"context parallel", t->cp, t->why_cp},
        {"expert parallel", t->ep, t->why_ep},   {"ZeRO stage", t->zero, t->why_zero},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fprintf(f, "  %-18s %8s   %s\n", rows[i].name, FMT_N(rows[i].v), rows[i].why);
    if (t->pp > 1) fprintf(f, "  %-18s %8s   interleaved stages per device\n", "virtual stages", FMT_N(t->virtual_stages));
    fprintf(f, "  %-18s %8s   tokens per step: %s\n", "global batch", fmt_num(b1, sizeof b1, t->global_batch_tokens),
            t->why_batch);
    fprintf(f, "  %-18s %8s   x %s sequence(s) of %s tokens per data-parallel rank: %s\n", "micro-batches",
            FMT_N(t->micro_batches), FMT_N(t->micro_batch_seqs), FMT_N(t->seq), t->why_micro);
    fprintf(f, "  %-18s %8s   GB per device of %s GB usable (weights, gradients, optimizer, activations)\n",
            "memory", FMT_N(t->memory_gb), FMT_N(t->memory_cap_gb));
    fprintf(f, "  %-18s %8s   GB weights%s + %s gradients + %s optimizer%s + %s activations; %s GB left to the "
            "framework\n", "memory by part", FMT_N(t->mem_weights_gb), t->finetune && t->lora_rank > 0 ? " (frozen base + adapters)" : "",
            FMT_N(t->mem_grads_gb), FMT_N(t->mem_optimizer_gb),
            t->finetune && !strcmp(t->finetune, "qlora") ? " (paged to host memory)" : "",
            FMT_N(t->mem_activations_gb), FMT_N(t->mem_reserve_gb));
    if (t->finetune && t->lora_rank > 0)
        fprintf(f, "  %-18s %8s   rank %s adapters on %s: %s trainable, %s frozen at %s B per parameter\n",
                "fine-tuning", t->finetune, FMT_N(t->lora_rank), t->lora_targets,
                fmt_si(b1, sizeof b1, t->params_trainable), fmt_si(b2, sizeof b2, t->params_frozen),
                FMT_N(t->base_bytes_per_param));
    else if (t->finetune)
        fprintf(f, "  %-18s %8s   the pre-training step on the tokens given: %s trainable\n", "fine-tuning",
                t->finetune, fmt_si(b1, sizeof b1, t->params_trainable));
    fprintf(f, "\ntraining step (one device, central; %s steps)\n", fmt_num(b1, sizeof b1, t->steps));
    for (size_t i = 0; i < t->n_parts; i++)
        fprintf(f, "  %-14s %10s s %5.1f%%  %s\n", t->parts[i].name, FMT_N(t->parts[i].s),
                t->step_s > 0 ? 100 * t->parts[i].s / t->step_s : 0, t->parts[i].what);
    fprintf(f, "  %-14s %10s s\n", "step", FMT_N(t->step_s));
    if (t->long_steps > 0)
        fprintf(f, "  long-context stage: %s steps of %s s at %s tokens (context parallel %s, data parallel %s)\n",
                fmt_num(b1, sizeof b1, t->long_steps), FMT_N(t->long_step_s), FMT_N(t->long_seq), FMT_N(t->long_cp), FMT_N(t->long_dp));
    if (t->why_recompute) fprintf(f, "  recompute: %s\n", t->why_recompute);
    fprintf(f, "  goodput: %s\n", t->why_goodput);
    fprintf(f, "  fabric: %s\n", t->fabric);
    fprintf(f, "  MFU %s [%s-%s] in steps x goodput %s [%s-%s] = utilisation %s [%s-%s]\n",
            FMT_N(t->mfu.central), FMT_N(t->mfu.low), FMT_N(t->mfu.high), FMT_N(t->goodput.central), FMT_N(t->goodput.low), FMT_N(t->goodput.high),
            FMT_N(t->utilization.central), FMT_N(t->utilization.low), FMT_N(t->utilization.high));
}

/* "a -> b" of two figures, into buf. */
static const char *span(char *buf, size_t cap, double a, double b)
{
    char x[40], y[40];
    snprintf(buf, cap, "%s -> %s", fmt_num(x, sizeof x, a), fmt_num(y, sizeof y, b));
    return buf;
}

/* The sensitivity table (--sensitivity): one row per ranged assumption,
 * largest swing of the emissions first. */
static void sensitivity_text(const jc_estimate *e, FILE *f)
{
    if (!e->n_sensitivity) return;
    fprintf(f, "\nsensitivity (each ranged assumption alone from its low to its high, every other input central;\n"
               "central figures of the two runs, as --pin KEY=low and --pin KEY=high print them)\n");
    fprintf(f, "  %4s  %-32s %-26s %-26s %10s  %-26s %s\n", "rank", "assumption", "low -> high",
            "emissions kgCO2e", "swing", "facility kWh", "wall h");
    for (size_t i = 0; i < e->n_sensitivity; i++) {
        const jc_sensitivity *r = &e->sensitivity[i];
        char a[64], b[64], c[64], d[64], w[40];
        fprintf(f, "  %4zu  %-32s %-26s %-26s %10s  %-26s %s\n", i + 1, r->key, span(a, sizeof a, r->low, r->high),
                span(b, sizeof b, r->co2_low, r->co2_high), fmt_num(w, sizeof w, fabs(r->co2_high - r->co2_low)),
                span(c, sizeof c, r->kwh_low, r->kwh_high), span(d, sizeof d, r->hours_low, r->hours_high));
    }
}

/* The Monte Carlo percentiles (--draws) beside the corner range. */
static void montecarlo_text(const jc_estimate *e, FILE *f)
{
    if (!e->has_mc) return;
    fprintf(f, "\nMonte Carlo (%s draws, seed %s, joulecast's own xoshiro256**; each ranged input above from its "
               "stated distribution,\nthe central figures moved by the product of the inputs' one-at-a-time factors; "
               "--json lists each input's distribution and why)\n", FMT_N(e->mc_draws), FMT_N(e->mc_seed));
    fprintf(f, "  %-34s %14s %14s %14s\n", "", "p5", "p50", "p95");
    const struct { const char *label, *unit; jc_pct p; jc_range r; } rows[] = {
        {"emissions, location-based", "kgCO2e", e->mc_co2_kg, e->co2_kg},
        {"energy, facility (IT x PUE)", "kWh", e->mc_energy_facility_kwh, e->energy_facility_kwh},
        {"wall time", "h", e->mc_wall_hours, e->wall_hours},
    };
    for (size_t i = 0; i < 3; i++) {
        char a[40], b[40], c[40];
        fprintf(f, "  %-34s %14s %14s %14s  %s\n", rows[i].label, fmt_num(a, sizeof a, rows[i].p.p5),
                fmt_num(b, sizeof b, rows[i].p.p50), fmt_num(c, sizeof c, rows[i].p.p95), rows[i].unit);
    }
    size_t lg = 0, tr = 0, un = 0;
    for (size_t i = 0; i < e->n_mc_inputs; i++) {
        const char *dn = e->mc_inputs[i].distribution;
        lg += !strcmp(dn, "log-normal");
        tr += !strcmp(dn, "triangular");
        un += !strcmp(dn, "uniform");
    }
    fprintf(f, "  inputs: %zu log-normal (fitted factors; bounds = 5th/95th percentiles), %zu triangular, %zu uniform "
               "(dataset spreads); the efficiencies of one runtime fit and the two power coefficients move together\n",
            lg, tr, un);
}

/* issue 45: the water and cost rows of the results table (n/a and why
 * when unknown). */
static void cost_water_rows(const jc_estimate *e, FILE *f)
{
    if (e->has_water) {
        row(f, "water, on-site (IT kWh x WUE)", e->water_onsite_l, isnan(e->wue_l_per_kwh) ? "L (no WUE known)" : "L");
        row(f, "water, off-site (generation)", e->water_offsite_l,
            isnan(e->grid_water_l_per_kwh) ? "L (no water factor for the grid)" : "L");
        row(f, "water, total consumed", e->water_l, isnan(e->wue_l_per_kwh) ? "L (off-site only)"
                                                    : isnan(e->grid_water_l_per_kwh) ? "L (on-site only)" : "L");
    } else {
        fprintf(f, "  %-34s %14s %14s %14s  %s\n", "water, total consumed", "n/a", "n/a", "n/a", "(no water factor)");
    }
    if (e->has_cost) {
        char lab[64];
        snprintf(lab, sizeof lab, "cost (%s)", e->cost_basis);
        row(f, lab, e->cost, e->cost_currency);
    } else {
        fprintf(f, "  %-34s %14s %14s %14s  %s\n", "cost", "n/a", "n/a", "n/a", "(no price known)");
    }
}

/* issue 45: where the cost's price and the water factors come from. */
static void cost_water_text(const jc_estimate *e, FILE *f)
{
    char b1[40], b2[40];
    fprintf(f, "\ncost and water\n");
    if (e->has_cost) {
        fprintf(f, "  cost     %s %s x %s", fmt_num(b1, sizeof b1, e->cost_rate), e->cost_rate_unit,
                isnan(e->cost_units) ? "facility kWh" : "instances x wall hours");
        if (!isnan(e->cost_units)) fprintf(f, " (%s instance%s)", fmt_num(b2, sizeof b2, e->cost_units),
                                         e->cost_units == 1 ? "" : "s");
        fprintf(f, "; %s%s%s%s%s\n", e->cost_basis, e->cost_region ? ", " : "", e->cost_region ? e->cost_region : "",
                e->cost_date ? ", dated " : "", e->cost_date ? e->cost_date : "");
        fprintf(f, "           source: %s\n", e->cost_source);
    } else {
        fprintf(f, "  cost     n/a: %s\n", e->cost_absent ? e->cost_absent : "no price known");
    }
    if (!isnan(e->wue_l_per_kwh))
        fprintf(f, "  water    on-site WUE %s L/kWh (per IT kWh); source: %s\n", fmt_num(b1, sizeof b1, e->wue_l_per_kwh),
                e->wue_source);
    if (!isnan(e->grid_water_l_per_kwh))
        fprintf(f, "  water    off-site %s L per kWh generated; source: %s\n",
                fmt_num(b1, sizeof b1, e->grid_water_l_per_kwh), e->grid_water_source);
    fprintf(f, "  water    basis: %s\n", e->has_water ? e->water_basis : e->water_absent);
}

jc_status jc_report_estimate_text(const jc_estimate *e, FILE *f)
{
    return jc_report_estimate_text_top(e, f, JC_PER_NODE_TOP_DEFAULT);
}

jc_status jc_report_estimate_text_top(const jc_estimate *e, FILE *f, int top)
{
    char b1[64], b2[64], b3[64];
    fprintf(f, "joulecast estimate: %s, %s method\n", jc_mode_name(e->mode), jc_method_name(e->method));
    fprintf(f, "hardware   %s x %s (%s", FMT_N(e->devices), e->device_name, e->device_id);
    if (e->device_alias) fprintf(f, "; '%s' picks this variant, joulecast hw list shows the others", e->device_alias);
    fprintf(f, "), %s", e->precision);
    if (e->host_id) fprintf(f, ", host %s x %s", FMT_N(e->hosts), e->host_id);
    fprintf(f, "\n");
    if (e->region_code)
        fprintf(f, "region     %s (%s%s%s)\n", e->region_code, e->region_name ? e->region_name : "",
                grid_zone(e) ? "; grid zone " : "", grid_zone(e) ? grid_zone(e) : "");
    if (e->host_assumed) fprintf(f, "host       %s\n", e->host_assumed);
    if (e->vm_cpu) {   /* a CPU VM (issue 42): its share, power, and Green Algorithms beside */
        fprintf(f, "vm         %s vCPUs of %s (%s of the package): CPU %s W, memory %s%s\n", FMT_N(e->vm_vcpus),
                e->vm_cpu, FMT_N(e->vm_share), FMT_N(e->vm_cpu_w),
                isnan(e->vm_memory_w) ? "not counted (no instance named)" : FMT_N(e->vm_memory_w),
                isnan(e->vm_memory_w) ? "" : " W");
        fprintf(f, "vs GA      Green Algorithms for the same VM %s kWh, joulecast %s kWh (facility, central; %+.2f%%)\n",
                FMT_N(e->vm_ga_facility_kwh), FMT_N(e->energy_facility_kwh.central),
                100 * (e->energy_facility_kwh.central / e->vm_ga_facility_kwh - 1));
    }
    if (e->flops_per_pass > 0)
        fprintf(f, "work       %s FLOP per forward pass x %s %s = %s FLOP in all\n",
                fmt_si(b1, sizeof b1, e->flops_per_pass), fmt_num(b2, sizeof b2, e->passes),
                e->mode == JC_MODE_TRAINING ? (e->passes == 1 ? "step (forward + backward + optimizer)"
                                                               : "steps (forward + backward + optimizer)")
                                            : e->passes == 1 ? "pass" : "passes",
                fmt_si(b3, sizeof b3, e->flops_total));
    else if (e->flops_total > 0)
        fprintf(f, "work       %s FLOP in all\n", fmt_si(b1, sizeof b1, e->flops_total));
    if (e->lower_bound)
        fprintf(f, "figures    LOWER BOUND: the model's count is partial (--allow-partial), so every figure "
                   "below is a lower bound\n");

    if (e->n_warnings) {
        fprintf(f, "\nwarnings\n");
        for (size_t i = 0; i < e->n_warnings; i++) fprintf(f, "  ! %s\n", e->warnings[i]);
    }

    fprintf(f, "\n  %-34s %14s %14s %14s\n", "", "low", "central", "high");
    row(f, "wall time", e->wall_hours, "h");
    row(f, "device-hours", e->device_hours, "h");
    row(f, "energy, devices", e->energy_device_kwh, "kWh");
    row(f, "  idle floor", e->energy_idle_kwh, "kWh");
    row(f, "  dynamic (above idle)", e->energy_dynamic_kwh, "kWh");
    if (e->host_absent) {
        char unit[200];
        snprintf(unit, sizeof unit, "kWh (not added: %s)", e->host_absent);
        row(f, "energy, host", e->energy_host_kwh, unit);
    } else {
        row(f, "energy, host", e->energy_host_kwh, "kWh");
    }
    row(f, "energy, IT (devices + host)", e->energy_it_kwh, "kWh");
    row(f, "energy, facility (IT x PUE)", e->energy_facility_kwh, "kWh");
    row(f, "emissions, location-based", e->co2_kg, "kgCO2e");
    if (e->has_market) row(f, "emissions, market-based", e->co2_market_kg, "kgCO2e");
    else fprintf(f, "  %-34s %14s %14s %14s  %s\n", "emissions, market-based", "n/a", "n/a", "n/a",
                 "(no provider-published factor for this region)");
    if (e->has_embodied) row(f, "emissions, embodied (amortised)", e->co2_embodied_kg, "kgCO2e");
    cost_water_rows(e, f);
    if (e->implied_utilization.central > 0)
        row(f, "implied utilisation of dense peak", e->implied_utilization, "");
    else
        row(f, "implied utilisation of dense peak", rj_known_range(e->implied_utilization),
            "(the job's FLOPs are not known)");
    row(f, "average power per device", e->avg_power_w, "W");
    if (e->j_per_sample.central > 0) {
        row(f, "energy per sample (facility)", e->j_per_sample, "J");
        row(f, "samples per kWh", e->samples_per_kwh, "");
    } else {
        row(f, "energy per sample (facility)", rj_known_range(e->j_per_sample),
            "(no sample count: give a model with --requests or --samples)");
    }
    if (e->j_per_token.central > 0) row(f, "energy per token (facility)", e->j_per_token, "J");
    if (e->scenario) {   /* --scenario (issue 41) */
        char lab[64];
        snprintf(lab, sizeof lab, "latency per query (%s)", e->scenario);
        row(f, lab, e->latency_s, "s");
    }

    if (e->train_step) train_step_text(e, f);
    if (e->has_measured) measured_text(e, f);
    if (e->n_equivalences) {
        fprintf(f, "\nequivalent to (central emissions)\n");
        for (size_t i = 0; i < e->n_equivalences; i++) {
            const jc_assumption *q = &e->equivalences[i];
            size_t n = strlen(q->source);
            fprintf(f, "  %12s %-12s %s\n  %12s %-12s [%.*s%s]\n", fmt_num(b1, sizeof b1, q->value.central), q->unit,
                    q->label, "", "", n > 160 ? 157 : (int)n, q->source, n > 160 ? "..." : "");
        }
    }
    cost_water_text(e, f);
    sensitivity_text(e, f);
    montecarlo_text(e, f);
    if (e->n_nodes && nodes_text(e, f, top) != JC_OK) return JC_ERR_NOMEM;

    fprintf(f, "\nassumptions (origin: user option, hwdb entry with its source, model count, derived, default)\n");
    for (size_t i = 0; i < e->n_assumptions; i++) {
        const jc_assumption *a = &e->assumptions[i];
        char v[200];
        if (exact(a->value))
            fmt_num(v, sizeof v, a->value.central);
        else {
            char lo[40], hi[40];
            snprintf(v, sizeof v, "%s [%s-%s]", fmt_num(b1, sizeof b1, a->value.central),
                     fmt_num(lo, sizeof lo, a->value.low), fmt_num(hi, sizeof hi, a->value.high));
        }
        fprintf(f, "  %-26s %-26s %-10s %-8s %s\n", a->key, v, a->unit ? a->unit : "",
                jc_origin_name(a->origin), a->label);
        if (a->source && *a->source) {
            /* the full text is in --json; keep the table readable */
            size_t n = strlen(a->source);
            fprintf(f, "  %-26s   source: %.*s%s\n", "", n > 200 ? 197 : (int)n, a->source,
                    n > 200 ? "..." : "");
        }
    }
    fprintf(f, "\nRanges: low/high take every ranged assumption at the end that lowers/raises the energy "
               "(docs/energy-model.md).\n");
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- JSON ------------------------------------------------------------------------ */

static cJSON *assumption_json(const jc_assumption *a)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    if (!rj_str(o, "key", a->key) || !rj_str(o, "label", a->label) ||
        !rj_range(o, "value", a->value) || !rj_str(o, "unit", a->unit) ||
        !rj_str(o, "origin", jc_origin_name(a->origin)) || !rj_str(o, "source", a->source)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The training step model's record (e->train_step) as "train_step". */
static int train_step_json(cJSON *root, const jc_train_step *t)
{
    cJSON *o = cJSON_AddObjectToObject(root, "train_step"), *arr, *p;
    if (!o) return 0;
    const rj_field f[] = {
        RJF_S("arch", t->arch), RJF_S("model_type", t->model_type), RJF_N("params_total", t->params_total),
        RJF_N("params_active", t->params_active), RJF_N("layers", t->layers), RJF_N("hidden", t->hidden),
        RJF_N("heads", t->heads), RJF_N("seq", t->seq), RJF_N("experts", t->experts), RJF_N("top_k", t->top_k),
        RJF_N("tp", t->tp), RJF_N("pp", t->pp), RJF_N("dp", t->dp), RJF_N("cp", t->cp), RJF_N("ep", t->ep),
        RJF_N("zero", t->zero), RJF_N("virtual_stages", t->virtual_stages),
        RJF_N("micro_batch_seqs", t->micro_batch_seqs), RJF_N("micro_batches", t->micro_batches),
        RJF_N("global_batch_tokens", t->global_batch_tokens), RJF_N("steps", t->steps),
        RJF_N("long_seq", t->long_steps > 0 ? t->long_seq : NAN), RJF_N("long_cp", t->long_steps > 0 ? t->long_cp : NAN),
        RJF_N("long_dp", t->long_steps > 0 ? t->long_dp : NAN),
        RJF_N("long_steps", t->long_steps > 0 ? t->long_steps : NAN),
        RJF_N("long_step_s", t->long_steps > 0 ? t->long_step_s : NAN), RJF_S("why_recompute", t->why_recompute),
        RJF_S("why_tp", t->why_tp), RJF_S("why_pp", t->why_pp), RJF_S("why_dp", t->why_dp),
        RJF_S("why_cp", t->why_cp), RJF_S("why_ep", t->why_ep), RJF_S("why_zero", t->why_zero),
        RJF_S("why_batch", t->why_batch), RJF_S("why_micro", t->why_micro), RJF_N("memory_gb", t->memory_gb),
        RJF_N("memory_cap_gb", t->memory_cap_gb), RJF_N("mem_weights_gb", t->mem_weights_gb),
        RJF_N("mem_grads_gb", t->mem_grads_gb), RJF_N("mem_optimizer_gb", t->mem_optimizer_gb),
        RJF_N("mem_activations_gb", t->mem_activations_gb), RJF_N("mem_reserve_gb", t->mem_reserve_gb),
        RJF_S("finetune", t->finetune), RJF_N("lora_rank", t->lora_rank > 0 ? t->lora_rank : NAN),
        RJF_S("lora_targets", t->lora_targets), RJF_N("params_trainable", t->params_trainable),
        RJF_N("params_frozen", t->params_frozen), RJF_N("base_bytes_per_param", t->base_bytes_per_param),
        RJF_N("step_s", t->step_s),
        RJF_N("model_flops_step", t->model_flops_step), RJF_R("mfu", t->mfu), RJF_R("goodput", t->goodput),
        RJF_S("why_goodput", t->why_goodput), RJF_S("fabric", t->fabric),
        RJF_R("utilization", t->utilization),
    };
    if (!rj_fields(o, f, sizeof f / sizeof f[0])) return 0;
    if (!(arr = cJSON_AddArrayToObject(o, "parts"))) return 0;
    for (size_t i = 0; i < t->n_parts; i++) {
        if (!(p = cJSON_CreateObject())) return 0;
        if (!cJSON_AddItemToArray(arr, p)) {
            cJSON_Delete(p);
            return 0;
        }
        if (!rj_str(p, "name", t->parts[i].name) || !rj_str(p, "what", t->parts[i].what) ||
            !rj_num(p, "s", t->parts[i].s))
            return 0;
    }
    return 1;
}

cJSON *rj_estimate(const jc_estimate *e)
{
    cJSON *root = cJSON_CreateObject(), *o, *arr;
    if (!root) return NULL;
    REQ(rj_str(root, "schema", "joulecast-estimate/1"));
    REQ(rj_str(root, "mode", jc_mode_name(e->mode)));
    REQ(rj_str(root, "method", jc_method_name(e->method)));
    REQ(rj_str(root, "precision", e->precision));
    /* a partial count that was let through: every figure is a lower bound */
    REQ(rj_str(root, "figures", e->lower_bound ? "lower bound" : "estimate"));
    if (e->model_path) {
        REQ(o = cJSON_AddObjectToObject(root, "model"));
        REQ(rj_str(o, "path", e->model_path));
        REQ(rj_num(o, "size_bytes", (double)e->model_size_bytes));
        REQ(rj_str(o, "graph_sha256", e->model_graph_sha256));
        REQ(rj_str(o, "sha256", e->model_sha256));
    } else {
        REQ(cJSON_AddNullToObject(root, "model"));
    }
    REQ(rj_str(root, "hwdb_version", e->hwdb_version));
    const jc_range none = {NAN, NAN, NAN};
    const rj_field hardware[] = {
        RJF_S("device", e->device_id), RJF_S("device_name", e->device_name), RJF_S("device_alias", e->device_alias),
        RJF_N("devices", e->devices),
        RJF_S("host", e->host_id), RJF_N("hosts", e->host_id ? e->hosts : NAN),
        RJF_S("host_class", e->host_id ? NULL : e->host_class),
        RJF_N("host_class_share", !e->host_id && e->host_class && e->hosts > 0 ? e->hosts : NAN),
        RJF_S("host_assumed", e->host_assumed),
        RJF_S("vm_cpu", e->vm_cpu), RJF_N("vcpus", e->vm_cpu ? e->vm_vcpus : NAN),
        RJF_N("vcpu_share", e->vm_cpu ? e->vm_share : NAN), RJF_N("vm_cpu_w", e->vm_cpu ? e->vm_cpu_w : NAN),
        RJF_N("vm_memory_w", e->vm_cpu ? e->vm_memory_w : NAN),
        RJF_N("ga_facility_kwh", e->vm_cpu ? e->vm_ga_facility_kwh : NAN),
        RJF_N("cpu_cores_used", e->cpu_matrix_unit ? e->cpu_cores_used : NAN),
        RJF_S("cpu_matrix_unit", e->cpu_matrix_unit),
    };
    const rj_field region[] = {
        RJF_S("code", e->region_code), RJF_S("name", e->region_name), RJF_S("grid_zone", grid_zone(e)),
        RJF_R("ci_gco2e_per_kwh", e->ci),
        RJF_S("ci_source", e->ci_source), RJF_S("ci_dataset", e->ci_dataset_id),
        RJF_N("ci_year", e->ci_year ? (double)e->ci_year : NAN),
        RJF_N("ci_region_default", e->ci_region_default), RJF_B("ci_basis_fallback", e->ci_basis_fallback),
        RJF_R("pue", e->pue),
        RJF_S("pue_source", e->pue_source),
    };
    /* 0 in the estimate means "not known" for these: null */
    const rj_field work[] = {
        RJF_N("batch", e->batch), RJF_N("flops_per_pass", rj_known(e->flops_per_pass)),
        RJF_N("passes", rj_known(e->passes)), RJF_N("samples", rj_known(e->samples)),
        RJF_N("tokens", rj_known(e->tokens)), RJF_N("flops_total", rj_known(e->flops_total)),
        RJF_N("bytes_total", rj_known(e->bytes_total)),
    };
    const rj_field results[] = {
        RJF_R("wall_hours", e->wall_hours), RJF_R("device_hours", e->device_hours),
        RJF_R("energy_device_kwh", e->energy_device_kwh), RJF_R("energy_idle_kwh", e->energy_idle_kwh),
        RJF_R("energy_dynamic_kwh", e->energy_dynamic_kwh), RJF_R("energy_host_kwh", e->energy_host_kwh),
        RJF_R("energy_it_kwh", e->energy_it_kwh), RJF_R("energy_facility_kwh", e->energy_facility_kwh),
        RJF_R("co2_location_kg", e->co2_kg),
        RJF_R("co2_market_kg", e->has_market ? e->co2_market_kg : none),
        RJF_R("co2_embodied_kg", e->has_embodied ? e->co2_embodied_kg : none),
        RJF_R("implied_utilization", rj_known_range(e->implied_utilization)),
        RJF_R("avg_power_w_per_device", e->avg_power_w),
        RJF_R("j_per_sample", rj_known_range(e->j_per_sample)),
        RJF_R("samples_per_kwh", rj_known_range(e->samples_per_kwh)),
        RJF_R("j_per_token", rj_known_range(e->j_per_token)), RJF_S("host_absent", e->host_absent),
        RJF_R("water_l", e->has_water ? e->water_l : none), RJF_R("cost", e->has_cost ? e->cost : none),
        RJF_S("cost_currency", e->has_cost ? e->cost_currency : NULL),
    };
    REQ(o = cJSON_AddObjectToObject(root, "hardware"));
    REQ(rj_fields(o, hardware, sizeof hardware / sizeof hardware[0]));
    REQ(o = cJSON_AddObjectToObject(root, "region"));
    REQ(rj_fields(o, region, sizeof region / sizeof region[0]));
    REQ(o = cJSON_AddObjectToObject(root, "work"));
    REQ(rj_fields(o, work, sizeof work / sizeof work[0]));
    REQ(o = cJSON_AddObjectToObject(root, "results"));
    REQ(rj_fields(o, results, sizeof results / sizeof results[0]));
    REQ(rj_bound_share(o, e));
    if (e->scenario) {   /* --scenario (issue 41): the MLPerf scenario and a query's latency */
        REQ(rj_str(o, "scenario", e->scenario));
        REQ(rj_range(o, "latency_s", e->latency_s));
    }
    if (e->train_step) REQ(train_step_json(root, e->train_step));
    if (e->has_measured) {
        const jc_trace *t = e->trace;
        REQ(o = cJSON_AddObjectToObject(root, "measured"));
        REQ(rj_str(o, "trace", t->path));
        REQ(rj_str(o, "format", jc_trace_format_name(t->format)));
        REQ(rj_str(o, "start", t->start[0] ? t->start : NULL));
        REQ(rj_str(o, "end", t->end[0] ? t->end : NULL));
        REQ(rj_str(o, "scope", e->measured_scope));
        REQ(rj_num(o, "hours", e->measured_hours));
        REQ(rj_num(o, "energy_kwh", e->measured_kwh));
        REQ(rj_num(o, "predicted_hours", e->predicted_hours));
        REQ(rj_num(o, "predicted_device_kwh", e->predicted_device_kwh));
        REQ(rj_num(o, "predicted_it_kwh", e->predicted_it_kwh));
    } else {
        REQ(cJSON_AddNullToObject(root, "measured"));
    }
    REQ(rj_str_array(root, "warnings", (const char *const *)e->warnings, e->n_warnings));
    REQ(arr = cJSON_AddArrayToObject(root, "assumptions"));
    for (size_t i = 0; i < e->n_assumptions; i++) {
        REQ(o = assumption_json(&e->assumptions[i]));
        REQ(rj_push(arr, o));
    }
    REQ(arr = cJSON_AddArrayToObject(root, "equivalences"));
    for (size_t i = 0; i < e->n_equivalences; i++) {
        REQ(o = assumption_json(&e->equivalences[i]));
        REQ(rj_push(arr, o));
    }
    REQ(rj_nodes(root, "nodes", e->nodes, e->n_nodes));
    REQ(rj_cost_water(root, e));
    REQ(rj_sensitivity(root, e));
    REQ(rj_montecarlo(root, e));
    return root;
done:
    cJSON_Delete(root);
    return NULL;
}

char *jc_report_estimate_json(const jc_estimate *e)
{
    cJSON *root = rj_estimate(e);
    char *out = root ? rj_print(root) : NULL;
    cJSON_Delete(root);
    return out;
}

/* ---- CSV --------------------------------------------------------------------------- */

/* issue 45: the water and cost columns (n/a and empty when unknown). */
static void cost_water_csv(const jc_estimate *e, FILE *f)
{
    jc_range w = e->has_water ? e->water_l : (jc_range){NAN, NAN, NAN};
    jc_range c = e->has_cost ? e->cost : (jc_range){NAN, NAN, NAN};
    const double v[] = {w.low, w.central, w.high};
    for (int i = 0; i < 3; i++) {
        fputc(',', f);
        rcsv_num(f, v[i]);
    }
    fputc(',', f);
    jci_csv_field(f, e->has_water ? e->water_basis : NULL, 0);
    const double u[] = {c.low, c.central, c.high};
    for (int i = 0; i < 3; i++) {
        fputc(',', f);
        rcsv_num(f, u[i]);
    }
    const char *s[] = {e->cost_currency, e->cost_basis, e->cost_source, e->cost_date};
    for (int i = 0; i < 4; i++) {
        fputc(',', f);
        jci_csv_field(f, e->has_cost ? s[i] : NULL, 0);
    }
}

jc_status jc_report_estimate_csv(const jc_estimate *e, FILE *f, int header)
{
    static const char *cols[] = {"wall_hours", "device_hours", "energy_device_kwh", "energy_idle_kwh",
                                 "energy_dynamic_kwh", "energy_host_kwh", "energy_it_kwh",
                                 "energy_facility_kwh", "co2_location_kg", "co2_market_kg",
                                 "co2_embodied_kg", "implied_utilization", "avg_power_w"};
    const jc_range *vals[] = {&e->wall_hours, &e->device_hours, &e->energy_device_kwh, &e->energy_idle_kwh,
                              &e->energy_dynamic_kwh, &e->energy_host_kwh, &e->energy_it_kwh,
                              &e->energy_facility_kwh, &e->co2_kg, &e->co2_market_kg,
                              &e->co2_embodied_kg, &e->implied_utilization, &e->avg_power_w};
    size_t n = sizeof cols / sizeof cols[0];
    if (header) {
        fprintf(f, "mode,method,precision,device,devices,host,hosts,region,flops_total,passes,samples");
        for (size_t i = 0; i < n; i++) fprintf(f, ",%s_low,%s,%s_high", cols[i], cols[i], cols[i]);
        fprintf(f, ",figures,model_graph_sha256,model_sha256");
        fprintf(f, ",water_l_low,water_l,water_l_high,water_basis,cost_low,cost,cost_high,cost_currency,cost_basis,"
                   "cost_source,cost_date");
        /* --sensitivity: the top driver (the whole table is in --json) */
        if (e->n_sensitivity) fprintf(f, ",top_driver,top_driver_co2_kg_at_low,top_driver_co2_kg_at_high");
        fprintf(f, "\n");
    }
    /* unknown figures are "n/a"; an absent host or region is empty */
    fprintf(f, "%s,%s,%s,", jc_mode_name(e->mode), jc_method_name(e->method), e->precision);
    jci_csv_field(f, e->device_id, 0);
    fprintf(f, ",%g,", e->devices);
    jci_csv_field(f, e->host_id, 0);
    fputc(',', f);
    if (e->host_id) fprintf(f, "%g", e->hosts);
    fputc(',', f);
    jci_csv_field(f, e->region_code, 0);
    fputc(',', f);
    rcsv_num(f, rj_known(e->flops_total));
    fputc(',', f);
    rcsv_num(f, rj_known(e->passes));
    fputc(',', f);
    rcsv_num(f, rj_known(e->samples));
    for (size_t i = 0; i < n; i++) {
        jc_range r = *vals[i];
        if ((vals[i] == &e->co2_market_kg && !e->has_market) ||
            (vals[i] == &e->co2_embodied_kg && !e->has_embodied))
            r.low = r.central = r.high = NAN;
        if (vals[i] == &e->implied_utilization) r = rj_known_range(r);
        fputc(',', f);
        rcsv_num(f, r.low);
        fputc(',', f);
        rcsv_num(f, r.central);
        fputc(',', f);
        rcsv_num(f, r.high);
    }
    fprintf(f, ",%s,", e->lower_bound ? "lower bound" : "estimate");
    jci_csv_field(f, e->model_graph_sha256, 0);
    fputc(',', f);
    jci_csv_field(f, e->model_sha256, 0);
    cost_water_csv(e, f);
    if (e->n_sensitivity) {
        fputc(',', f);
        jci_csv_field(f, e->sensitivity[0].key, 0);
        fputc(',', f);
        rcsv_num(f, e->sensitivity[0].co2_low);
        fputc(',', f);
        rcsv_num(f, e->sensitivity[0].co2_high);
    }
    fprintf(f, "\n");
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
