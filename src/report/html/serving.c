/*
 * serving.c (report/html) - the HTML page of `estimate --generate` (LLM
 * serving): headline cards (J per output token and per request, TTFT,
 * ITL, throughput, the workload's energy and emissions), the serving
 * figures low-central-high, the energy of one request split into prefill
 * and decode, power per device by phase, memory (weights, KV cache) and
 * what bounds the running sequences, one decode step per node, then the
 * workload's energy split, emissions, every figure and the assumptions
 * with their sources as the estimate page draws them (estimate.c).
 * Reads the typed jc_serving / jc_estimate fields only; every figure's
 * data-key is its path in jc_report_serving_json.
 */
#include "report/html/html_int.h"
#include "joulecast/serving.h"
#include "joulecast/hwdb.h"   /* the estimate's device */
#include "joulecast/estimate.h"

#include <math.h>
#include <stdlib.h>

static const unit_step U_J[] = {{1e-6, "MJ"}, {1e-3, "kJ"}, {1, "J"}, {1e3, "mJ"}, {0, NULL}};
static const unit_step U_S[] = {{1, "s"}, {1e3, "ms"}, {1e6, "&#181;s"}, {0, NULL}};
static const unit_step U_TPS[] = {{1e-6, "M tok/s"}, {1e-3, "k tok/s"}, {1, "tok/s"}, {0, NULL}};
static const unit_step U_W[] = {{1e-3, "kW"}, {1, "W"}, {0, NULL}};
static const unit_step U_B[] = {{1.0 / 1099511627776.0, "TiB"}, {1.0 / 1073741824.0, "GiB"},
                                {1.0 / 1048576.0, "MiB"}, {1.0 / 1024.0, "KiB"}, {1, "B"}, {0, NULL}};
static const unit_step U_PCT[] = {{100, "%"}, {100, "%"}, {0, NULL}};

/* One figure in unit u, or n/a (no data-key: the JSON has null). */
static void cell(FILE *f, const char *key, double v, const unit_step *u)
{
    if (!isfinite(v)) fprintf(f, "n/a");
    else jci_html_num_in(f, key, v, u);
}

/* A quantity with its readable unit, or n/a. */
static void qty(FILE *f, const char *key, double v, const unit_step *us)
{
    if (!isfinite(v)) fprintf(f, "n/a");
    else jci_html_qty(f, key, v, us);
}

/* A run of prose with figures: each piece's text (trusted markup; NULL:
 * the piece is left out), then its figure unless key is NULL. */
enum { P_INT, P_NUM, P_PCT, P_STR };
typedef struct piece { const char *text, *key; double v; int how; const char *str; } piece;

static void prose(FILE *f, const piece *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!p[i].text) continue;
        fputs(p[i].text, f);
        if (p[i].how == P_STR) jci_html_esc(f, p[i].str);
        else if (!p[i].key) continue;
        else if (p[i].how == P_INT) jci_html_inum(f, p[i].key, p[i].v);
        else if (p[i].how == P_PCT) cell(f, p[i].key, p[i].v, U_PCT);
        else jci_html_num(f, p[i].key, p[i].v);
    }
}
#define PIECES(f, ...) do { const piece pp_[] = {__VA_ARGS__}; prose(f, pp_, sizeof pp_ / sizeof pp_[0]); } while (0)

/* The header: model, run line, workload, parallelism; the cards; warnings. */
static void head_and_cards(FILE *f, const jc_serving *s)
{
    const jc_estimate *e = s->estimate;
    jci_html_page_begin(f, "joulecast estimate --generate", s->model ? s->model : "a generating model");
    jci_html_run_line(f, e, "generation (LLM serving)");
    int moe = s->params_active < s->params_total;
    PIECES(f, {"<p class=\"sub\">model ", NULL, 0, P_STR, s->model_type ? s->model_type : "(type not stated)"},
           {", ", "serving.params_total", s->params_total, P_INT, NULL}, {" parameters", NULL, 0, P_NUM, NULL},
           {moe ? " (" : NULL, "serving.params_active", s->params_active, P_INT, NULL},
           {moe ? " active per token)" : NULL, NULL, 0, P_NUM, NULL},
           {" &#183; workload ", "serving.requests", s->requests, P_INT, NULL},
           {" requests of ", "serving.prompt_tokens", s->prompt_tokens, P_INT, NULL},
           {" prompt + ", "serving.output_tokens", s->output_tokens, P_INT, NULL},
           {" output tokens</p>\n<p class=\"sub\">parallelism: tp ", "serving.tp", s->tp, P_INT, NULL},
           {" &#215; pp ", "serving.pp", s->pp, P_INT, NULL},
           {s->ep > 0 ? ", ep " : NULL, "serving.ep", s->ep, P_INT, NULL},
           {", ", "serving.replicas", s->replicas, P_INT, NULL},
           {s->replicas == 1 ? " replica &#183; weights " : " replicas &#183; weights ", NULL, 0, P_STR, s->weights},
           {s->expert_weights ? " (experts " : NULL, NULL, 0, P_STR, s->expert_weights},
           {s->expert_weights ? ")" : NULL, NULL, 0, P_NUM, NULL}, {", KV cache ", NULL, 0, P_STR, s->kv_format}, {", arithmetic ", NULL, 0, P_STR, s->compute_precision},
           {"</p>\n", NULL, 0, P_NUM, NULL});
    if (e->lower_bound)
        fprintf(f, "<p class=\"sub\"><b>Lower bound:</b> the model's count is partial, so every figure on this "
                   "page is a lower bound.</p>\n");
    const struct { const char *label, *key; jc_range r; const unit_step *u; } cards[] = {
        {"Energy per output token, facility", "results.j_per_output_token", s->j_per_output_token, U_J},
        {"Energy per request, facility", "results.j_per_request", s->j_per_request, U_J},
        {"Time to first token", "results.ttft_s", s->ttft_s, U_S},
        {"Inter-token latency", "results.itl_s", s->itl_s, U_S},
        {"Output tokens/s per device", "results.tokens_per_s_per_device", s->tokens_per_s_per_device, U_TPS},
        {"Energy, facility, all requests", "results.energy_facility_kwh", e->energy_facility_kwh, jci_html_u_kwh},
        {"Emissions, location-based", "results.co2_location_kg", e->co2_kg, jci_html_u_kg},
        {"Serving time", "results.wall_hours", e->wall_hours, jci_html_u_h},
    };
    fprintf(f, "</header>\n<div class=\"cards\">\n");
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
        jci_html_card(f, cards[i].label, cards[i].key, cards[i].r, cards[i].u);
    fprintf(f, "</div>\n");
    jci_html_warn_box(f, "<b>Warnings</b>", e->warnings, e->n_warnings);
}

/* The serving figures: ranges chart and the table. */
static void serving_section(FILE *f, const jc_serving *s)
{
    struct { const char *label, *key; const jc_range *r; const unit_step *u; } fr[] = {
        {"time to first token (queueing excluded)", "results.ttft_s", &s->ttft_s, U_S},
        {"inter-token latency (mean)", "results.itl_s", &s->itl_s, U_S},
        {"output tokens/s, all devices", "results.tokens_per_s", &s->tokens_per_s, U_TPS},
        {"output tokens/s per device", "results.tokens_per_s_per_device", &s->tokens_per_s_per_device, U_TPS},
        {"output tokens/s per sequence", "results.tokens_per_s_per_sequence", &s->tokens_per_s_per_seq, U_TPS},
        {"energy per output token, devices", "results.j_per_output_token_device", &s->j_per_output_token_device, U_J},
        {"energy per output token, facility", "results.j_per_output_token", &s->j_per_output_token, U_J},
        {"energy per request, facility", "results.j_per_request", &s->j_per_request, U_J},
        {"power per device, prefill", "results.power_prefill_w_per_device", &s->power_prefill_w, U_W},
        {"power per device, decode", "results.power_decode_w_per_device", &s->power_decode_w, U_W},
    };
    size_t n = sizeof fr / sizeof fr[0];
    fprintf(f, "<section id=\"serving\"><h2>Serving figures</h2><p class=\"note\">Per request and per token, "
               "low &#8211; central &#8211; high. Facility energy = (devices + host) &#215; PUE; the device "
               "figure is what a GPU power meter sees (the convention of the ML.ENERGY benchmark, which folds "
               "prefill into the output tokens).</p>\n");
    rrow rr[5] = {
        {"time to first token", s->ttft_s, "results.ttft_s", U_S},
        {"inter-token latency", s->itl_s, "results.itl_s", U_S},
        {"output tokens/s per device", s->tokens_per_s_per_device, "results.tokens_per_s_per_device", U_TPS},
        {"J per output token, facility", s->j_per_output_token, "results.j_per_output_token", U_J},
        {"J per request, facility", s->j_per_request, "results.j_per_request", U_J},
    };
    jci_html_ranges(f, rr, 5);
    fprintf(f, "<table><thead><tr><th>figure</th><th class=\"n\">low</th><th class=\"n\">central</th>"
               "<th class=\"n\">high</th><th>unit</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < n; i++) {
        const unit_step *u = jci_html_pick_unit(fr[i].u, fr[i].r->central);
        fprintf(f, "<tr><td>%s</td>", fr[i].label);
        jci_html_range_cells(f, fr[i].key, *fr[i].r, u);
        fprintf(f, "<td>%s</td></tr>\n", u->unit);
    }
    fprintf(f, "<tr><td>prefill share of the device energy</td><td></td><td class=\"n\">");
    cell(f, "results.prefill_energy_share", s->prefill_energy_share, U_PCT);
    fprintf(f, "</td><td></td><td>%%</td></tr>\n</tbody></table></section>\n");
}

/* One request's device energy, prefill and decode, and how it becomes the
 * facility figure. */
static void request_section(FILE *f, const jc_serving *s)
{
    double dev = s->j_per_output_token_device.central * s->output_tokens;
    double share = s->prefill_energy_share;
    fprintf(f, "<section id=\"request\"><h2>Energy of one request</h2><p class=\"note\">Central case. Device "
               "energy of one request (device J per output token &#215; ");
    jci_html_inum(f, "serving.output_tokens", s->output_tokens);
    fprintf(f, " output tokens), split by phase: the prefill over the prompt and the decode steps over the "
               "growing context. The facility figure adds the host and the PUE: ");
    qty(f, "results.j_per_request.central", s->j_per_request.central, U_J);
    fprintf(f, " per request.</p>\n");
    if (isfinite(dev) && isfinite(share)) {
        seg sg[] = {
            {"prefill", dev * share, NULL, "var(--dyn)"},
            {"decode", dev * (1 - share), NULL, "var(--idle)"},
        };
        jci_html_stack(f, sg, 2, U_J);
    } else {
        fprintf(f, "<p>n/a (the prefill share is not known)</p>\n");
    }
    fprintf(f, "</section>\n");
}

/* Power per device by phase, with the device's idle and TDP for scale. */
static void power_section(FILE *f, const jc_serving *s)
{
    const jc_estimate *e = s->estimate;
    bar b[5];
    size_t n = 0;
    b[n++] = (bar){"prefill (compute-bound)", NULL, s->power_prefill_w.central, s->power_prefill_w.low,
                   s->power_prefill_w.high, "results.power_prefill_w_per_device.central", "var(--dyn)"};
    b[n++] = (bar){"decode (bandwidth-bound)", NULL, s->power_decode_w.central, s->power_decode_w.low,
                   s->power_decode_w.high, "results.power_decode_w_per_device.central", "var(--idle)"};
    b[n++] = (bar){"time-weighted average", NULL, e->avg_power_w.central, e->avg_power_w.low, e->avg_power_w.high,
                   "results.avg_power_w_per_device.central", "var(--host)"};
    if (e->device && e->device->tdp_w.present)
        b[n++] = (bar){"device TDP (hwdb)", NULL, e->device->tdp_w.value, NAN, NAN, NULL, "var(--pue)"};
    if (e->device && e->device->idle_w.present)
        b[n++] = (bar){"device idle (hwdb)", NULL, e->device->idle_w.value, NAN, NAN, NULL, "var(--pue)"};
    PIECES(f, {"<section id=\"power\"><h2>Power per device by phase</h2><p class=\"note\">Bars: central; "
               "whiskers: low to high. Prefill runs at ", "serving.prefill_flop_util", s->prefill_flop_util, P_PCT, NULL},
           {"% of dense peak; decode reads memory at ", "serving.decode_bw_util", s->decode_bw_util, P_PCT, NULL},
           {"% of its bandwidth and computes at ", "serving.decode_flop_util", s->decode_flop_util, P_PCT, NULL},
           {"% of peak while the device is busy (", "serving.decode_busy_share", s->decode_busy_share, P_PCT, NULL},
           {"% of a step; the rest is the runtime's overhead). Prefill takes ", "serving.prefill_time_share",
            s->prefill_time_share, P_PCT, NULL},
           {"% of a replica's busy time. The power model and its serving constants are in the assumptions "
            "below.</p>\n", NULL, 0, P_NUM, NULL});
    jci_html_hbars(f, b, n, "W", 1060, 250, 0, 0);
    fprintf(f, "</section>\n");
}

/* Memory per device and what bounds the running sequences. */
static void memory_section(FILE *f, const jc_serving *s)
{
    int lim = s->memory_limited;
    PIECES(f, {lim ? "<section id=\"memory\"><h2>Memory and concurrency</h2><p class=\"note\"><b>The memory limits "
                     "the batch:</b> the KV cache left after the weights holds "
                   : "<section id=\"memory\"><h2>Memory and concurrency</h2><p class=\"note\"><b>--concurrency "
                     "limits the batch:</b> the KV cache of the ", "serving.concurrency", s->concurrency, P_INT, NULL},
           {lim ? " running sequences per replica, fewer than the " : " running sequences per replica (",
            "serving.concurrency_asked", s->concurrency_asked, P_INT, NULL},
           {lim ? " asked (--concurrency)." : " asked) fits the memory left after the weights.", NULL, 0, P_NUM, NULL});
    fprintf(f, " KV cache at the mean context (prompt + half the output).</p>\n");
    double used = s->memory_per_device, cap = s->memory_capacity;
    const unit_step *u = jci_html_pick_unit(U_B, cap > used ? cap : used);
    bar b[2] = {
        {"used per device", NULL, used * u->factor, NAN, NAN, NULL, "var(--dyn)"},
        {"held per device", NULL, cap * u->factor, NAN, NAN, NULL, "var(--pue)"},
    };
    jci_html_hbars(f, b, 2, u->unit, 1060, 250, 0, 0);
    struct { const char *label, *key; double v; } mr[] = {
        {"stored weights, whole model", "serving.weight_bytes", s->weight_bytes},
        {"KV cache per token of context, all layers", "serving.kv_bytes_per_token",
         s->kv_bytes_per_token > 0 ? s->kv_bytes_per_token : NAN},
        {"KV cache of the running sequences, per replica", "serving.kv_bytes", s->kv_bytes},
        {"memory used per device", "serving.memory_per_device_bytes", s->memory_per_device},
        {"memory per device", "serving.memory_capacity_bytes", s->memory_capacity},
    };
    fprintf(f, "<table><thead><tr><th>memory</th><th class=\"n\">bytes</th><th class=\"n\">readable</th></tr>"
               "</thead><tbody>\n");
    for (size_t i = 0; i < sizeof mr / sizeof mr[0]; i++) {
        fprintf(f, "<tr><td>%s</td><td class=\"n\">", mr[i].label);
        if (isfinite(mr[i].v)) jci_html_inum(f, mr[i].key, mr[i].v);
        else fprintf(f, "n/a");
        fprintf(f, "</td><td class=\"n\">");
        qty(f, NULL, mr[i].v, U_B);
        fprintf(f, "</td></tr>\n");
    }
    PIECES(f, {"</tbody></table>\n<p class=\"note\">Work: prefill ", "serving.prefill_flops_per_request",
               s->prefill_flops, P_NUM, NULL},
           {" FLOP per request; decode ", "serving.decode_flops_per_token", s->decode_flops_per_token, P_NUM, NULL},
           {" FLOP per token and ", "serving.decode_bytes_per_step", s->decode_bytes_per_step, P_NUM, NULL},
           {" bytes read per step (mean, per replica)", NULL, 0, P_NUM, NULL},
           {s->experts_touched > 0 ? "; " : NULL, "serving.experts_touched_per_step", s->experts_touched, P_NUM, NULL},
           {s->experts_touched > 0 ? " experts touched per MoE layer per step (uniform routing assumed)" : NULL,
            NULL, 0, P_NUM, NULL},
           {s->collective_s_per_step > 0 ? "; tensor-parallel all-reduces " : NULL, "serving.collective_s_per_step",
            s->collective_s_per_step, P_NUM, NULL},
           {s->collective_s_per_step > 0 ? " s per step" : NULL, NULL, 0, P_NUM, NULL});
    fprintf(f, ".</p>\n</section>\n");
}

/* One decode step per node (with --per-node, which --html turns on). */
static jc_status step_section(FILE *f, const jc_serving *s)
{
    if (!s->n_nodes) return JC_OK;
    size_t top = s->n_nodes < 15 ? s->n_nodes : 15;
    bar *b = malloc(top * sizeof *b);
    if (!b) return JC_ERR_NOMEM;
    for (size_t i = 0; i < top; i++) {
        const jc_est_node *x = &s->nodes[i];
        b[i] = (bar){x->name && *x->name ? x->name : "(unnamed)", x->op, x->time_s * 1e6, NAN, NAN, NULL,
                     x->memory_bound ? "var(--idle)" : "var(--dyn)"};
    }
    fprintf(f, "<section id=\"step\"><h2>One decode step per device</h2><p class=\"note\">Central case, the "
               "first %zu of %zu nodes in model order, time in &#181;s. Dark: compute-bound, light: "
               "memory-bound.</p>\n", top, s->n_nodes);
    jci_html_hbars(f, b, top, "&#181;s", 1060, 330, 0, 0);
    free(b);
    jci_html_node_table(f, s->nodes, s->n_nodes, "serving.decode_step_nodes");
    fprintf(f, "</section>\n");
    return JC_OK;
}

jc_status jc_report_serving_html(const jc_serving *s, FILE *f)
{
    if (!s || !s->estimate || !f) return JC_ERR_USAGE;
    const jc_estimate *e = s->estimate;
    head_and_cards(f, s);
    serving_section(f, s);
    request_section(f, s);
    power_section(f, s);
    memory_section(f, s);
    jc_status st = step_section(f, s);
    if (st) return st;
    fprintf(f, "<section id=\"workload\"><h2>The whole workload</h2><p class=\"note\">All ");
    jci_html_inum(f, "serving.requests", s->requests);
    fprintf(f, " requests: device, host and facility energy and emissions, as every estimate reports them."
               "</p></section>\n");
    jci_html_energy_split(f, e);
    jci_html_emissions_section(f, e);
    jci_html_cost_water_section(f, e);
    jci_html_figures_section(f, e);
    jci_html_sources_sections(f, e);
    jci_html_page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
