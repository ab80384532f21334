/*
 * compare.c (report) - renders `joulecast compare`: one estimate of the
 * same job per model, side by side, with every figure also as a ratio
 * against the first model; with --generate (items with serving figures)
 * the serving columns (TTFT, ITL, tokens/s, J per output token and per
 * request).  Formatting only; the JSON keys are documented in
 * docs/json-schemas.md ("compare").
 */
#include "base/jc_internal.h"
#include "base/fmt.h"

#include <cjson/cJSON.h>
#include "report/rjson.h"
#include "joulecast/serving.h"
#include "joulecast/sweep.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* The compared figures, in column order. */
enum { F_MACS, F_PARAMS, F_TIME, F_ENERGY, F_CO2, F_JPS, F_COUNT };
static const char *const fkey[F_COUNT] = {"macs", "params", "wall_hours", "energy_kwh", "co2_kg", "j_per_sample"};

/* The central value of figure k for item x; NAN when unknown. */
static double fig(const jc_compare_item *x, int k)
{
    const jc_estimate *e = x->est;
    switch (k) {
    case F_MACS: return x->macs >= 0 ? (double)x->macs : NAN;
    case F_PARAMS: return x->params >= 0 ? (double)x->params : NAN;
    case F_TIME: return e->wall_hours.central;
    case F_ENERGY: return e->energy_facility_kwh.central;
    case F_CO2: return e->co2_kg.central;
    case F_JPS: return e->j_per_sample.central > 0 ? e->j_per_sample.central : NAN;
    }
    return NAN;
}

/* x's figure k over the first item's; NAN when either is unknown or the
 * first is 0. */
static double ratio(const jc_compare_item *items, size_t i, int k)
{
    double a = fig(&items[i], k), b = fig(&items[0], k);
    if (isnan(a) || isnan(b) || b == 0) return NAN;
    return a / b;
}

/* Whether every item ran on the same device and region (then the header
 * names them once). */
static int same_place(const jc_compare_item *items, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        const jc_estimate *a = items[0].est, *b = items[i].est;
        /* compare --generate shows each model's device count in its row */
        if (strcmp(a->device_id, b->device_id) || (a->devices != b->devices && !items[0].serving) ||
            (a->region_code == NULL) != (b->region_code == NULL) ||
            (a->region_code && strcmp(a->region_code, b->region_code)))
            return 0;
    }
    return 1;
}

static int valid(const jc_compare_item *items, size_t n)
{
    if (!items || !n) return 0;
    for (size_t i = 0; i < n; i++)
        if (!items[i].est || !items[i].label || !items[i].serving != !items[0].serving) return 0;
    return 1;
}

/* ---- compare --generate: the serving figures ------------------------------------------ */

enum { S_PARAMS, S_ACTIVE, S_TTFT, S_ITL, S_TPSD, S_JTOKD, S_JTOK, S_JREQ, S_ENERGY, S_CO2, S_COUNT };
static const char *const skey[S_COUNT] = {"params", "params_active", "ttft_s", "itl_s", "tokens_per_s_per_device",
                                          "j_per_output_token_device", "j_per_output_token", "j_per_request",
                                          "energy_kwh", "co2_kg"};

/* The range of serving figure k of item x (params: a point). */
static jc_range sfig(const jc_compare_item *x, int k)
{
    const jc_serving *s = x->serving;
    switch (k) {
    case S_PARAMS: return (jc_range){s->params_total, s->params_total, s->params_total};
    case S_ACTIVE: return (jc_range){s->params_active, s->params_active, s->params_active};
    case S_TTFT: return s->ttft_s;
    case S_ITL: return s->itl_s;
    case S_TPSD: return s->tokens_per_s_per_device;
    case S_JTOKD: return s->j_per_output_token_device;
    case S_JTOK: return s->j_per_output_token;
    case S_JREQ: return s->j_per_request;
    case S_ENERGY: return x->est->energy_facility_kwh;
    case S_CO2: return x->est->co2_kg;
    }
    return (jc_range){NAN, NAN, NAN};
}

/* Central of serving figure k for item i over the first item's; NAN when
 * unknown or the first is 0. */
static double sratio(const jc_compare_item *items, size_t i, int k)
{
    double a = sfig(&items[i], k).central, b = sfig(&items[0], k).central;
    if (!isfinite(a) || !isfinite(b) || b == 0) return NAN;
    return a / b;
}

/* The notes of a comparison: the place of each item when they differ, each
 * item's note and warnings. */
static void notes_text(const jc_compare_item *items, size_t n, FILE *f)
{
    int notes = 0, place = same_place(items, n);
    for (size_t i = 0; i < n; i++) notes += items[i].note != NULL || items[i].est->n_warnings > 0;
    if (!notes && place) return;
    fprintf(f, "\nnotes\n");
    if (!place)
        for (size_t i = 0; i < n; i++)
            fprintf(f, "  - %s: %s x %s, region %s\n", items[i].label, FMT_N(items[i].est->devices),
                    items[i].est->device_id, items[i].est->region_code ? items[i].est->region_code : "(--ci)");
    for (size_t i = 0; i < n; i++) {
        if (items[i].note) fprintf(f, "  - %s: %s\n", items[i].label, items[i].note);
        for (size_t k = 0; k < items[i].est->n_warnings; k++)
            fprintf(f, "  ! %s: %s\n", items[i].label, items[i].est->warnings[k]);
    }
}

/* The model column's width: the longest label, at least w (labels are
 * printed whole, never cut: two paths that differ on the left stay apart). */
static int label_w(const jc_compare_item *items, size_t n, size_t w)
{
    for (size_t i = 0; i < n; i++)
        if (items[i].label && strlen(items[i].label) > w) w = strlen(items[i].label);
    return w > 4096 ? 4096 : (int)w;
}

/* What sets each model's time: the shares of one pass's kernel time
 * that are compute-, memory- and launch-bound, and the utilisation of the
 * dense peak the whole job implies; nothing when no model was timed node
 * by node (a job given as FLOPs or hours). */
static void bound_text(const jc_compare_item *items, size_t n, int lw, FILE *f)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) any |= isfinite(items[i].est->bound_share[0]);
    if (!any) return;
    fprintf(f, "\nwhat sets the time (share of one pass's kernel time by what bounds each kernel; utilisation of "
               "the dense peak over the job)\n  %-*s %8s %8s %8s %12s\n", lw, "model", "compute", "memory", "launch",
            "utilisation");
    for (size_t i = 0; i < n; i++) {
        const jc_estimate *e = items[i].est;
        char s[3][16], u[40];
        for (int k = 0; k < 3; k++)
            if (isfinite(e->bound_share[k])) snprintf(s[k], sizeof s[k], "%.0f%%", 100 * e->bound_share[k]);
            else snprintf(s[k], sizeof s[k], "n/a");
        if (e->implied_utilization.central > 0) fmt_num(u, sizeof u, e->implied_utilization.central);
        else snprintf(u, sizeof u, "n/a");
        fprintf(f, "  %-*s %8s %8s %8s %12s\n", lw, items[i].label, s[0], s[1], s[2], u);
    }
}

/* With --sensitivity: each model's assumption whose range moves its
 * emissions most, the swing and its share of the emissions range. */
static void driver_text(const jc_compare_item *items, size_t n, int lw, FILE *f)
{
    if (!items[0].est->n_sensitivity) return;
    fprintf(f, "\nwhat moves the emissions most (--sensitivity: each ranged assumption alone from its low to its "
               "high)\n  %-*s %-32s %16s %16s\n", lw, "model", "top driver", "swing kgCO2e", "share of range");
    for (size_t i = 0; i < n; i++) {
        const jc_estimate *e = items[i].est;
        if (!e->n_sensitivity) continue;
        const jc_sensitivity *r = &e->sensitivity[0];
        double sw = fabs(r->co2_high - r->co2_low), width = e->co2_kg.high - e->co2_kg.low;
        char a[40], b[40];
        if (width > 0) snprintf(b, sizeof b, "%.0f%%", 100 * sw / width);
        else snprintf(b, sizeof b, "n/a");
        fprintf(f, "  %-*s %-32s %16s %16s\n", lw, items[i].label, r->key, fmt_num(a, sizeof a, sw), b);
    }
}

/* issue 45: each model's cost and water (central), with the price's and
 * the water factors' basis; n/a and why where unknown. */
static void cost_water_text(const jc_compare_item *items, size_t n, int lw, FILE *f)
{
    fprintf(f, "\ncost and water (central; sources in each estimate's --json)\n  %-*s %16s %12s  %s\n", lw, "model",
            "cost", "water L", "basis");
    for (size_t i = 0; i < n; i++) {
        const jc_estimate *e = items[i].est;
        char c[48], w[40], v[40];
        if (e->has_cost) snprintf(c, sizeof c, "%s %s", fmt_num(v, sizeof v, e->cost.central), e->cost_currency);
        else snprintf(c, sizeof c, "n/a");
        fmt_num(w, sizeof w, e->has_water ? e->water_l.central : NAN);
        fprintf(f, "  %-*s %16s %12s  %s%s%s\n", lw, items[i].label, c, w,
                e->has_cost ? e->cost_basis : e->cost_absent ? e->cost_absent : "no price",
                e->has_cost && e->cost_date ? ", dated " : "", e->has_cost && e->cost_date ? e->cost_date : "");
    }
}

static jc_status serving_text(const jc_compare_item *items, size_t n, FILE *f)
{
    const jc_serving *s0 = items[0].serving;
    const jc_estimate *e0 = items[0].est;
    char b[S_COUNT][40], rq[40];
    fprintf(f, "joulecast compare --generate: %zu models, %s requests x (%s prompt + %s output tokens), "
               "concurrency %s\n", n, fmt_int(rq, sizeof rq, (int64_t)llround(s0->requests)), FMT_N(s0->prompt_tokens),
            FMT_N(s0->output_tokens), FMT_N(s0->concurrency_asked));
    if (same_place(items, n)) {
        fprintf(f, "hardware   %s (%s), devices per model in the table\n", e0->device_name, e0->device_id);
        if (e0->region_code) fprintf(f, "region     %s (%s)\n", e0->region_code, e0->region_name ? e0->region_name : "");
        if (e0->host_assumed) fprintf(f, "host       %s (the first model's)\n", e0->host_assumed);
    }
    fprintf(f, "facility   PUE %s: J/tok fac, J/request and facility kWh are at the facility (devices + host, "
               "x PUE)\n", FMT_N(e0->pue.central));
    static const char *const head[S_COUNT] = {"params", "active", "TTFT ms", "ITL ms", "tok/s/dev", "J/tok dev",
                                              "J/tok fac", "J/request", "facility kWh", "kgCO2e"};
    const int lw = label_w(items, n, 34);
    fprintf(f, "\n  %-*s %4s %3s %5s", lw, "model", "dev", "tp", "conc");
    for (int k = 0; k < S_COUNT; k++) fprintf(f, " %*s", k == S_ENERGY ? 12 : 9, head[k]);
    fprintf(f, "\n");
    for (size_t i = 0; i < n; i++) {
        const jc_serving *s = items[i].serving;
        for (int k = 0; k < S_COUNT; k++) {
            double v = sfig(&items[i], k).central;
            if (k == S_PARAMS || k == S_ACTIVE) fmt_si(b[k], sizeof b[0], v);
            else fmt_num(b[k], sizeof b[0], k == S_TTFT || k == S_ITL ? v * 1e3 : v);
            if (!isfinite(v)) snprintf(b[k], sizeof b[0], "n/a");
        }
        fprintf(f, "  %-*s %4s %3s %4s%s", lw, items[i].label, FMT_N(s->devices), FMT_N(s->tp),
                FMT_N(s->concurrency), s->memory_limited ? "m" : " ");
        for (int k = 0; k < S_COUNT; k++) fprintf(f, " %*s", k == S_ENERGY ? 12 : 9, b[k]);
        fprintf(f, "\n");
    }
    fprintf(f, "\nratio against %s\n  %-*s %4s %3s %5s", items[0].label, lw, "model", "", "", "");
    for (int k = 0; k < S_COUNT; k++) fprintf(f, " %*s", k == S_ENERGY ? 12 : 9, head[k]);
    fprintf(f, "\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "  %-*s %4s %3s %5s", lw, items[i].label, "", "", "");
        for (int k = 0; k < S_COUNT; k++) {
            double r = sratio(items, i, k);
            if (isnan(r)) snprintf(b[k], sizeof b[0], "n/a");
            else snprintf(b[k], sizeof b[0], "%sx", FMT_N(r));
            fprintf(f, " %*s", k == S_ENERGY ? 12 : 9, b[k]);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n(conc: running sequences per replica; m: the KV memory, not --concurrency, bounds them; "
               "J/tok dev: the devices' energy alone, as a GPU meter sees it)\n");
    cost_water_text(items, n, label_w(items, n, 34), f);
    notes_text(items, n, f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

jc_status jc_report_compare_text(const jc_compare_item *items, size_t n, FILE *f)
{
    if (!valid(items, n)) return JC_ERR_USAGE;
    if (items[0].serving) return serving_text(items, n, f);
    const jc_estimate *e0 = items[0].est;
    char b[F_COUNT][40], bb[40];
    fprintf(f, "joulecast compare: %zu models, %s, %s method\n", n, jc_mode_name(e0->mode), jc_method_name(e0->method));
    if (same_place(items, n)) {
        fprintf(f, "hardware   %s x %s (%s", FMT_N(e0->devices), e0->device_name, e0->device_id);
        if (e0->device_alias) fprintf(f, "; '%s' picks this variant, joulecast hw list shows the others", e0->device_alias);
        fprintf(f, "), %s\n", e0->precision);
        if (e0->region_code) fprintf(f, "region     %s (%s)\n", e0->region_code, e0->region_name ? e0->region_name : "");
        if (e0->host_assumed) fprintf(f, "host       %s\n", e0->host_assumed);
    }
    fprintf(f, "facility   PUE %s: facility kWh and J/sample are at the facility (devices + host, x PUE)\n",
            FMT_N(e0->pue.central));
    const int lw = label_w(items, n, 32);
    fprintf(f, "\n  %-*s %6s %10s %10s %11s %13s %11s %11s\n", lw, "model", "batch", "MACs", "params", "wall h",
            "facility kWh", "kgCO2e", "J/sample");
    for (size_t i = 0; i < n; i++) {
        const jc_compare_item *x = &items[i];
        if (x->macs >= 0) fmt_si(b[F_MACS], sizeof b[0], (double)x->macs);
        else snprintf(b[F_MACS], sizeof b[0], "n/a");
        if (x->params >= 0) fmt_si(b[F_PARAMS], sizeof b[0], (double)x->params);
        else snprintf(b[F_PARAMS], sizeof b[0], "n/a");
        for (int k = F_TIME; k < F_COUNT; k++) fmt_num(b[k], sizeof b[0], fig(x, k));
        if (x->batch > 0) fmt_num(bb, sizeof bb, x->batch);
        else snprintf(bb, sizeof bb, "-");
        fprintf(f, "  %-*s %6s %10s %10s %11s %13s %11s %11s%s\n", lw, x->label, bb,
                b[F_MACS], b[F_PARAMS],
                b[F_TIME], b[F_ENERGY], b[F_CO2], b[F_JPS], x->partial ? "  (partial)" : "");
    }
    fprintf(f, "\nratio against %s\n", items[0].label);
    fprintf(f, "  %-*s %6s %10s %10s %11s %13s %11s %11s\n", lw, "model", "", "MACs", "params", "wall h",
            "facility kWh", "kgCO2e", "J/sample");
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < F_COUNT; k++) {
            double r = ratio(items, i, k);
            if (isnan(r)) snprintf(b[k], sizeof b[0], "n/a");
            else snprintf(b[k], sizeof b[0], "%sx", FMT_N(r));
        }
        fprintf(f, "  %-*s %6s %10s %10s %11s %13s %11s %11s\n", lw, items[i].label, "",
                b[F_MACS], b[F_PARAMS],
                b[F_TIME], b[F_ENERGY], b[F_CO2], b[F_JPS]);
    }
    bound_text(items, n, lw, f);
    driver_text(items, n, lw, f);
    cost_water_text(items, n, lw, f);
    notes_text(items, n, f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- JSON ----------------------------------------------------------------------- */

/* compare --generate: the serving keys of one model (as estimate
 * --generate --json names them). */
static int serving_json(cJSON *o, const jc_compare_item *x)
{
    const jc_serving *s = x->serving;
    const rj_field fs[] = {
        RJF_S("model_type", s->model_type), RJF_N("params_active", s->params_active), RJF_N("tp", s->tp),
        RJF_N("pp", s->pp), RJF_N("ep", rj_known(s->ep)), RJF_N("replicas", s->replicas),
        RJF_S("weights", s->weights), RJF_S("expert_weights", s->expert_weights), RJF_S("kv_format", s->kv_format),
        RJF_N("concurrency_asked", s->concurrency_asked), RJF_N("concurrency", s->concurrency),
        RJF_B("memory_limited", s->memory_limited), RJF_N("weight_bytes", s->weight_bytes),
        RJF_N("kv_bytes", s->kv_bytes),
    };
    if (!rj_fields(o, fs, sizeof fs / sizeof fs[0])) return 0;
    for (int k = S_TTFT; k < S_ENERGY; k++)
        if (!rj_range(o, skey[k], sfig(x, k))) return 0;
    const rj_field more[] = {
        RJF_R("tokens_per_s", s->tokens_per_s), RJF_R("power_prefill_w_per_device", s->power_prefill_w),
        RJF_R("power_decode_w_per_device", s->power_decode_w),
    };
    return rj_fields(o, more, sizeof more / sizeof more[0]);
}

char *jc_report_compare_json(const jc_compare_item *items, size_t n)
{
    if (!valid(items, n)) return NULL;
    cJSON *root = cJSON_CreateObject(), *o, *arr, *r;
    char *out = NULL;
    if (!root) return NULL;
    const jc_estimate *e0 = items[0].est;
    REQ(rj_str(root, "schema", "joulecast-compare/1"));
    REQ(rj_str(root, "mode", jc_mode_name(e0->mode)));
    REQ(rj_str(root, "method", jc_method_name(e0->method)));
    REQ(rj_str(root, "baseline", items[0].label));
    REQ(arr = cJSON_AddArrayToObject(root, "models"));
    for (size_t i = 0; i < n; i++) {
        const jc_compare_item *x = &items[i];
        const jc_estimate *e = x->est;
        const rj_field fs[] = {
            RJF_S("model", x->label), RJF_N("batch", rj_known(x->batch)), RJF_B("partial", x->partial),
            RJF_S("note", x->note), RJF_S("device", e->device_id), RJF_N("devices", e->devices),
            RJF_S("precision", e->precision), RJF_S("region", e->region_code), RJF_N("macs", fig(x, F_MACS)),
            RJF_N("params", fig(x, F_PARAMS)), RJF_N("flops_per_pass", rj_known(e->flops_per_pass)),
            RJF_R("wall_hours", e->wall_hours), RJF_R("energy_kwh", e->energy_facility_kwh),
            RJF_R("co2_kg", e->co2_kg), RJF_R("j_per_sample", rj_known_range(e->j_per_sample)),
        };
        REQ(o = rj_push_object(arr));
        REQ(rj_fields(o, fs, sizeof fs / sizeof fs[0]));
        if (!x->serving) {
            REQ(rj_range(o, "implied_utilization", rj_known_range(e->implied_utilization)));
            REQ(rj_bound_share(o, e));
            REQ(rj_top_driver(o, e));
        }
        if (x->serving) REQ(serving_json(o, x));
        REQ(rj_cost_water(o, e));   /* issue 45: the estimate's cost and water objects */
        REQ(r = cJSON_AddObjectToObject(o, "ratio"));
        for (int k = 0; k < F_COUNT; k++) REQ(rj_num(r, fkey[k], ratio(items, i, k)));
        for (int k = S_ACTIVE; x->serving && k < S_ENERGY; k++) REQ(rj_num(r, skey[k], sratio(items, i, k)));
        REQ(rj_str_array(o, "warnings", e->warnings, e->n_warnings));
    }
    out = rj_print(root);
done:
    cJSON_Delete(root);
    return out;
}

/* ---- CSV ----------------------------------------------------------------------- */

/* A figure after a comma, by the one CSV number rule (rcsv_num). */
static void csv_num(FILE *f, double v)
{
    fputc(',', f);
    rcsv_num(f, v);
}

/* A count, exact (doubles hold integers exactly up to 2^53). */
static void csv_count(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.0f", v);
    else fputs(",n/a", f);
}

jc_status jc_report_compare_csv(const jc_compare_item *items, size_t n, FILE *f)
{
    if (!valid(items, n)) return JC_ERR_USAGE;
    fprintf(f, "model,batch,partial,device,devices,precision,region,macs,params,wall_hours_low,wall_hours,"
               "wall_hours_high,energy_kwh_low,energy_kwh,energy_kwh_high,co2_kg_low,co2_kg,co2_kg_high,"
               "j_per_sample");
    for (int k = 0; k < F_COUNT; k++) fprintf(f, ",ratio_%s", fkey[k]);
    if (!items[0].serving) fprintf(f, ",implied_utilization,compute_share,memory_share,launch_share");
    if (items[0].serving) {   /* compare --generate: the serving columns */
        fprintf(f, ",params_active,tp,pp,concurrency_asked,concurrency,memory_limited,weights,kv_format");
        for (int k = S_TTFT; k < S_ENERGY; k++) fprintf(f, ",%s_low,%s,%s_high", skey[k], skey[k], skey[k]);
        for (int k = S_ACTIVE; k < S_ENERGY; k++) fprintf(f, ",ratio_%s", skey[k]);
    }
    fprintf(f, ",note,cost_low,cost,cost_high,cost_currency,cost_basis,water_l_low,water_l,water_l_high\n");
    for (size_t i = 0; i < n; i++) {
        const jc_compare_item *x = &items[i];
        const jc_estimate *e = x->est;
        jci_csv_field(f, x->label, 0);
        csv_num(f, x->batch > 0 ? x->batch : NAN);
        fprintf(f, ",%d,", x->partial);
        jci_csv_field(f, e->device_id, 0);
        fprintf(f, ",%g,%s,", e->devices, e->precision);
        jci_csv_field(f, e->region_code, 0);
        csv_count(f, fig(x, F_MACS));
        csv_count(f, fig(x, F_PARAMS));
        const jc_range *rs[] = {&e->wall_hours, &e->energy_facility_kwh, &e->co2_kg};
        for (int k = 0; k < 3; k++) {
            csv_num(f, rs[k]->low);
            csv_num(f, rs[k]->central);
            csv_num(f, rs[k]->high);
        }
        csv_num(f, fig(x, F_JPS));
        for (int k = 0; k < F_COUNT; k++) csv_num(f, ratio(items, i, k));
        if (!x->serving) {
            csv_num(f, rj_known(e->implied_utilization.central));
            for (int k = 0; k < 3; k++) csv_num(f, e->bound_share[k]);
        }
        if (x->serving) {
            const jc_serving *s = x->serving;
            csv_count(f, s->params_active);
            fprintf(f, ",%g,%g,%g,%g,%d,", s->tp, s->pp, s->concurrency_asked, s->concurrency, s->memory_limited);
            jci_csv_field(f, s->weights, 0);
            fputc(',', f);
            jci_csv_field(f, s->kv_format, 0);
            for (int k = S_TTFT; k < S_ENERGY; k++) rcsv_range(f, sfig(x, k));
            for (int k = S_ACTIVE; k < S_ENERGY; k++) csv_num(f, sratio(items, i, k));
        }
        fputc(',', f);
        jci_csv_field(f, x->note, 0);
        const jc_range none = {NAN, NAN, NAN};   /* issue 45: cost and water, n/a when unknown */
        rcsv_range(f, e->has_cost ? e->cost : none);
        fputc(',', f);
        jci_csv_field(f, e->has_cost ? e->cost_currency : NULL, 0);
        fputc(',', f);
        jci_csv_field(f, e->has_cost ? e->cost_basis : NULL, 0);
        rcsv_range(f, e->has_water ? e->water_l : none);
        fputc('\n', f);
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
