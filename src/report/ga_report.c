/*
 * ga_report.c (report) - the `ga` (Green-Algorithms mode) report of a jc_ga_result,
 * as text and as JSON.  Formatting only: every number comes from the
 * result (src/workflows/ga.c).
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "report/rjson.h"
#include "joulecast/ga.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* v (in units u[0]) in u[0], u[1] (x 1e3) or u[2] (x 1e6). */
static const char *scaled(char *buf, size_t cap, double v, const char *const u[3])
{
    char n[40];
    if (fabs(v) >= 1e6) snprintf(buf, cap, "%s %s", fmt_num(n, sizeof n, v / 1e6), u[2]);
    else if (fabs(v) >= 1e3) snprintf(buf, cap, "%s %s", fmt_num(n, sizeof n, v / 1e3), u[1]);
    else snprintf(buf, cap, "%s %s", fmt_num(n, sizeof n, v), u[0]);
    return buf;
}

/* Energy in Wh, kWh or MWh. */
static const char *energy(char *buf, size_t cap, double wh)
{
    static const char *const u[3] = {"Wh", "kWh", "MWh"};
    return scaled(buf, cap, wh, u);
}

/* Carbon in gCO2e, kgCO2e or tCO2e. */
static const char *carbon(char *buf, size_t cap, double g)
{
    static const char *const u[3] = {"gCO2e", "kgCO2e", "tCO2e"};
    return scaled(buf, cap, g, u);
}

static const char *pct(char *buf, size_t cap, double part, double whole)
{
    if (whole > 0) snprintf(buf, cap, "%5.1f%%", 100.0 * part / whole);
    else snprintf(buf, cap, "   - ");
    return buf;
}

jc_status jc_report_ga_text(const jc_ga_result *r, FILE *f)
{
    char b1[96], b2[96], b3[96], b4[96];
    fprintf(f, "Green Algorithms calculator v%s (green-algorithms.org; Lannelongue, "
               "Grealey, Inouye, Adv. Sci. 2021)\n\n", r->version);
    fprintf(f, "energy   %s\n", energy(b1, sizeof b1, r->energy_wh));
    fprintf(f, "carbon   %s\n", carbon(b1, sizeof b1, r->carbon_g));
    fprintf(f, "power    %s W (PUE included), for %s h", fmt_num(b1, sizeof b1, r->power_w),
            fmt_num(b2, sizeof b2, r->runtime_h));
    if (r->psf != 1) fprintf(f, " x PSF %s", FMT_N(r->psf));
    fprintf(f, "\n\nsplit\n");
    if (r->n_cores > 0)
        fprintf(f, "  CPU     %-12s %-14s %s  %d core%s x %s W x usage %s x PUE %s\n",
                energy(b1, sizeof b1, r->energy_cpu_wh), carbon(b2, sizeof b2, r->carbon_cpu_g),
                pct(b3, sizeof b3, r->energy_cpu_wh, r->energy_wh), r->n_cores,
                r->n_cores == 1 ? "" : "s", FMT_N(r->cpu_w_per_core), FMT_N(r->cpu_usage), FMT_N(r->pue));
    if (r->n_gpus > 0)
        fprintf(f, "  GPU     %-12s %-14s %s  %d GPU%s x %s W x usage %s x PUE %s\n",
                energy(b1, sizeof b1, r->energy_gpu_wh), carbon(b2, sizeof b2, r->carbon_gpu_g),
                pct(b3, sizeof b3, r->energy_gpu_wh, r->energy_wh), r->n_gpus,
                r->n_gpus == 1 ? "" : "s", FMT_N(r->gpu_w),
                FMT_N(r->gpu_usage), FMT_N(r->pue));
    fprintf(f, "  memory  %-12s %-14s %s  %s GB x %s W/GB x PUE %s\n",
            energy(b1, sizeof b1, r->energy_memory_wh), carbon(b2, sizeof b2, r->carbon_memory_g),
            pct(b3, sizeof b3, r->energy_memory_wh, r->energy_wh), FMT_N(r->memory_gb),
            FMT_N(r->memory_w_per_gb), FMT_N(r->pue));
    fprintf(f, "\nformula: energy = runtime x (cores x W/core x usage + GPUs x W x usage"
               " + GB x W/GB) x PUE x PSF;\n         carbon = energy x carbon intensity\n");

    fprintf(f, "\nused\n");
    for (size_t i = 0; i < r->n_used; i++) {
        const jc_ga_used *u = &r->used[i];
        fprintf(f, "  %-22s %s%s%s\n      from: %s\n", u->what, FMT_N(u->value),
                u->unit[0] ? " " : "", u->unit, u->from ? u->from : "");
        if (u->source) fprintf(f, "      source: %s\n", u->source);
    }
    if (r->cpu_model) fprintf(f, "  CPU model: %s\n", r->cpu_model);
    if (r->gpu_model) fprintf(f, "  GPU model: %s\n", r->gpu_model);
    fprintf(f, "  platform: %s", r->platform == JC_GA_PERSONAL ? "personal computer"
               : r->platform == JC_GA_CLOUD ? "cloud" : "local server");
    if (r->provider) fprintf(f, ", provider %s", r->provider);
    if (r->datacenter) fprintf(f, ", data centre %s", r->datacenter);
    fprintf(f, "\n");

    fprintf(f, "\nequivalences (the calculator's)\n");
    fprintf(f, "  tree-months        %s\n", fmt_num(b1, sizeof b1, r->tree_months));
    fprintf(f, "  car km (EU)        %s\n", fmt_num(b1, sizeof b1, r->car_km_eu));
    fprintf(f, "  car km (US)        %s\n", fmt_num(b1, sizeof b1, r->car_km_us));
    if (r->train_km > 0) fprintf(f, "  train km           %s\n", fmt_num(b1, sizeof b1, r->train_km));
    if (r->flight_label)
        fprintf(f, "  flights            %s x %s (%s%%)\n", fmt_num(b1, sizeof b1, r->flight_fraction),
                r->flight_label, fmt_num(b4, sizeof b4, 100 * r->flight_fraction));

    if (r->n_warnings) {
        fprintf(f, "\nwarnings\n");
        for (size_t i = 0; i < r->n_warnings; i++) fprintf(f, "  ! %s\n", r->warnings[i]);
    }
    fprintf(f, "\nwhat this figure leaves out\n");
    for (size_t i = 0; i < r->n_notes; i++) fprintf(f, "  - %s\n", r->notes[i]);

    fprintf(f, "\njoulecast's own estimate of the same job (a comparison, not the calculator's figure)\n");
    if (!r->has_own) {
        fprintf(f, "  not available: %s\n", r->own_reason ? r->own_reason : "");
    } else {
        for (size_t i = 0; i < r->n_own_parts; i++) {
            const jc_ga_own_part *p = &r->own_parts[i];
            /* the formula shown is the one that gives the figure: the
             * count, and the CPU's share of its sockets' cores */
            char cnt[32] = "", share[96] = "";
            if (p->count != 1) snprintf(cnt, sizeof cnt, "%s x ", FMT_N(p->count));
            if (p->cores_per_socket > 0)
                snprintf(share, sizeof share, " x share %s (%s of %s cores)", FMT_N(p->share), FMT_N(p->cores_used),
                         FMT_N(p->cores_per_socket));
            if (p->cores_per_socket > 0)
                fprintf(f, "  %-4s %s x %s: %sidle %s W + (TDP %s W - idle)%s x usage %s -> %s W\n", p->role,
                        p->device_id, FMT_N(p->count), cnt, FMT_N(p->idle_w), FMT_N(p->tdp_w), share, FMT_N(p->usage),
                        fmt_num(b1, sizeof b1, p->power_w));
            else
                fprintf(f, "  %-4s %s x %s: %s(idle %s W + (TDP %s W - idle) x usage %s) -> %s W\n", p->role,
                        p->device_id, FMT_N(p->count), cnt, FMT_N(p->idle_w), FMT_N(p->tdp_w), FMT_N(p->usage), fmt_num(b1, sizeof b1, p->power_w));
            if (p->tdp_source) fprintf(f, "       TDP source: %s\n", p->tdp_source);
            if (p->idle_source) fprintf(f, "       idle source: %s\n", p->idle_source);
        }
        fprintf(f, "  power %s W (memory and PUE included), energy %s, carbon %s",
                fmt_num(b1, sizeof b1, r->own_power_w), energy(b2, sizeof b2, r->own_energy_wh),
                carbon(b3, sizeof b3, r->own_carbon_g));
        if (r->energy_wh > 0)
            fprintf(f, " (%sx the calculator's)", fmt_num(b4, sizeof b4, r->own_energy_wh / r->energy_wh));
        fprintf(f, "\n  %s\n", r->own_reason);
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* The "inputs" object: what the calculator was given or looked up. */
static int ga_inputs(cJSON *o, const jc_ga_result *r)
{
    cJSON *in = cJSON_AddObjectToObject(o, "inputs");
    return in && rj_num(in, "runtime_h", r->runtime_h) && rj_num(in, "cores", r->n_cores) &&
           rj_str(in, "cpu_model", r->cpu_model) && rj_num(in, "cpu_w_per_core", r->cpu_w_per_core) &&
           rj_num(in, "cpu_usage", r->cpu_usage) && rj_num(in, "gpus", r->n_gpus) &&
           rj_str(in, "gpu_model", r->gpu_model) && rj_num(in, "gpu_w", r->gpu_w) &&
           rj_num(in, "gpu_usage", r->gpu_usage) && rj_num(in, "memory_gb", r->memory_gb) &&
           rj_num(in, "memory_w_per_gb", r->memory_w_per_gb) &&
           rj_str(in, "platform", jc_ga_platform_name(r->platform)) &&
           rj_str(in, "provider", r->provider) && rj_str(in, "datacenter", r->datacenter) &&
           rj_str(in, "location", r->location) && rj_num(in, "pue", r->pue) &&
           rj_num(in, "psf", r->psf) && rj_num(in, "carbon_intensity_g_per_kwh", r->ci);
}

/* The split by component and the equivalences. */
static int ga_split(cJSON *o, const jc_ga_result *r)
{
    cJSON *sp = cJSON_AddObjectToObject(o, "split");
    if (!sp) return 0;
    const char *names[3] = {"cpu", "gpu", "memory"};
    double w[3] = {r->power_cpu_w, r->power_gpu_w, r->power_memory_w};
    double e[3] = {r->energy_cpu_wh, r->energy_gpu_wh, r->energy_memory_wh};
    double c[3] = {r->carbon_cpu_g, r->carbon_gpu_g, r->carbon_memory_g};
    for (int i = 0; i < 3; i++) {
        cJSON *x = cJSON_AddObjectToObject(sp, names[i]);
        if (!x || !rj_num(x, "power_w", w[i]) || !rj_num(x, "energy_wh", e[i]) ||
            !rj_num(x, "carbon_g", c[i]))
            return 0;
    }
    cJSON *eq = cJSON_AddObjectToObject(o, "equivalences");
    return eq && rj_num(eq, "tree_months", r->tree_months) && rj_num(eq, "car_km_eu", r->car_km_eu) &&
           rj_num(eq, "car_km_us", r->car_km_us) && rj_num(eq, "train_km", r->train_km) &&
           rj_str(eq, "flight", r->flight_label) && rj_num(eq, "flight_fraction", r->flight_fraction);
}

/* The "used" list, warnings and what the figure leaves out. */
static int ga_lists(cJSON *o, const jc_ga_result *r)
{
    cJSON *used = cJSON_AddArrayToObject(o, "used");
    if (!used) return 0;
    for (size_t i = 0; i < r->n_used; i++) {
        cJSON *x = rj_push_object(used);
        if (!x || !rj_str(x, "what", r->used[i].what) || !rj_num(x, "value", r->used[i].value) ||
            !rj_str(x, "unit", r->used[i].unit) || !rj_str(x, "from", r->used[i].from) ||
            !rj_str(x, "source", r->used[i].source))
            return 0;
    }
    cJSON *w = cJSON_AddArrayToObject(o, "warnings");
    for (size_t i = 0; w && i < r->n_warnings; i++)
        if (!rj_push_str(w, r->warnings[i])) return 0;
    cJSON *n = cJSON_AddArrayToObject(o, "leaves_out");
    for (size_t i = 0; n && i < r->n_notes; i++)
        if (!rj_push_str(n, r->notes[i])) return 0;
    return w && n;
}

/* joulecast's own figure for the same run. */
static int ga_own(cJSON *o, const jc_ga_result *r)
{
    cJSON *own = cJSON_AddObjectToObject(o, "joulecast_comparison");
    if (!own || !cJSON_AddBoolToObject(own, "available", r->has_own) ||
        !rj_str(own, "note", r->own_reason))
        return 0;
    if (!r->has_own) return 1;
    if (!rj_num(own, "power_w", r->own_power_w) || !rj_num(own, "energy_wh", r->own_energy_wh) ||
        !rj_num(own, "carbon_g", r->own_carbon_g))
        return 0;
    cJSON *parts = cJSON_AddArrayToObject(own, "devices");
    if (!parts) return 0;
    for (size_t i = 0; i < r->n_own_parts; i++) {
        const jc_ga_own_part *p = &r->own_parts[i];
        cJSON *x = rj_push_object(parts);
        if (!x || !rj_str(x, "device", p->device_id) || !rj_str(x, "role", p->role) ||
            !rj_num(x, "count", p->count) || !rj_num(x, "idle_w", p->idle_w) ||
            !rj_num(x, "tdp_w", p->tdp_w) || !rj_num(x, "usage", p->usage) ||
            !rj_num(x, "share", p->share) ||
            (p->cores_per_socket > 0 && (!rj_num(x, "cores_used", p->cores_used) ||
                                         !rj_num(x, "cores_per_socket", p->cores_per_socket))) ||
            !rj_num(x, "power_w", p->power_w) || !rj_str(x, "tdp_source", p->tdp_source) ||
            !rj_str(x, "idle_source", p->idle_source))
            return 0;
    }
    return 1;
}

char *jc_report_ga_json(const jc_ga_result *r)
{
    cJSON *o = cJSON_CreateObject();
    char *s = NULL;
    if (!o) return NULL;
    REQ(rj_str(o, "mode", "green-algorithms"));
    REQ(rj_str(o, "calculator_version", r->version));
    REQ(ga_inputs(o, r));
    REQ(rj_num(o, "power_w", r->power_w) && rj_num(o, "energy_wh", r->energy_wh) &&
        rj_num(o, "energy_kwh", r->energy_wh / 1000) && rj_num(o, "carbon_g", r->carbon_g) &&
        rj_num(o, "carbon_kg", r->carbon_g / 1000));
    REQ(ga_split(o, r));
    REQ(ga_lists(o, r));
    REQ(ga_own(o, r));
    s = rj_print(o);
done:
    cJSON_Delete(o);
    return s;
}
