/*
 * rjson.c (report) - the small JSON/CSV helpers of the renderers (see rjson.h).
 */
#include "report/rjson.h"

#include "base/fmt.h"
#include "base/jc_internal.h"
#include "joulecast/estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rj_str(cJSON *o, const char *k, const char *v)
{
    return v ? cJSON_AddStringToObject(o, k, v) != NULL : cJSON_AddNullToObject(o, k) != NULL;
}

int rj_num(cJSON *o, const char *k, double v)
{
    return isfinite(v) ? cJSON_AddNumberToObject(o, k, v) != NULL : cJSON_AddNullToObject(o, k) != NULL;
}

const char *const rj_bound_names[3] = {"compute", "memory", "launch"};

int rj_bound_share(cJSON *o, const jc_estimate *e)
{
    if (!isfinite(e->bound_share[0])) return cJSON_AddNullToObject(o, "bound_share") != NULL;
    cJSON *x = cJSON_AddObjectToObject(o, "bound_share");
    for (int k = 0; x && k < 3; k++)
        if (!rj_num(x, rj_bound_names[k], e->bound_share[k])) return 0;
    return x != NULL;
}

int rj_range(cJSON *o, const char *k, jc_range r)
{
    if (!isfinite(r.low) || !isfinite(r.central) || !isfinite(r.high))
        return cJSON_AddNullToObject(o, k) != NULL;
    cJSON *x = cJSON_AddObjectToObject(o, k);
    return x && rj_num(x, "low", r.low) && rj_num(x, "central", r.central) && rj_num(x, "high", r.high);
}

int rj_fields(cJSON *o, const rj_field *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int ok = 0;
        switch (f[i].kind) {
        case RJF_NUM: ok = rj_num(o, f[i].key, f[i].num); break;
        case RJF_STR: ok = rj_str(o, f[i].key, f[i].str); break;
        case RJF_BOOL: ok = cJSON_AddBoolToObject(o, f[i].key, f[i].num != 0) != NULL; break;
        case RJF_RANGE: ok = rj_range(o, f[i].key, f[i].range); break;
        }
        if (!ok) return 0;
    }
    return 1;
}

const char *rj_bound(const jc_est_node *x)
{
    return x->launch_bound ? "launch" : x->memory_bound ? "memory" : "compute";
}

int rj_nodes(cJSON *o, const char *key, const jc_est_node *nodes, size_t n)
{
    cJSON *arr = cJSON_AddArrayToObject(o, key);
    if (!arr) return 0;
    for (size_t i = 0; i < n; i++) {
        const jc_est_node *x = &nodes[i];
        cJSON *r = rj_push_object(arr);
        rj_field fs[] = {
            RJF_S("name", x->name), RJF_S("op", x->op), RJF_N("flops", x->flops), RJF_N("bytes", x->bytes),
            RJF_N("time_s", x->time_s), RJF_N("energy_j", x->energy_j),
            RJF_S("bound", rj_bound(x)),
        };
        if (!r || !rj_fields(r, fs, sizeof fs / sizeof fs[0])) return 0;
    }
    return 1;
}

void rcsv_range(FILE *f, jc_range r)
{
    double v[3] = {r.low, r.central, r.high};
    for (int k = 0; k < 3; k++) {
        fputc(',', f);
        rcsv_num(f, v[k]);
    }
}

int rj_push(cJSON *arr, cJSON *item)
{
    if (!item) return 0;
    if (!cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        return 0;
    }
    return 1;
}

cJSON *rj_push_object(cJSON *arr)
{
    cJSON *x = cJSON_CreateObject();
    return rj_push(arr, x) ? x : NULL;
}

int rj_push_str(cJSON *arr, const char *s)
{
    return rj_push(arr, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

int rj_str_array(cJSON *o, const char *k, const char *const *v, size_t n)
{
    cJSON *arr = cJSON_AddArrayToObject(o, k);
    if (!arr) return 0;
    for (size_t i = 0; i < n; i++)
        if (!rj_push_str(arr, v[i])) return 0;
    return 1;
}

void rcsv_num(FILE *f, double v)
{
    char b[FMT_CAP];
    fputs(fmt_machine(b, sizeof b, v), f);
}

double rj_known(double v)
{
    return v > 0 ? v : NAN;
}

jc_range rj_known_range(jc_range r)
{
    if (r.central > 0) return r;
    jc_range u = {NAN, NAN, NAN};
    return u;
}

/* Replaces each invalid UTF-8 byte of s (malloc'ed, from cJSON) with the
 * six ASCII characters \ufffd.  Outside strings JSON text is ASCII, so
 * such bytes are always inside a string, where the escape is valid. */
static char *valid_utf8(char *s)
{
    if (!s) return NULL;
    size_t bad = 0, n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = jci_utf8_len(p);
        if (!k) { bad++; k = 1; }
        p += k;
        n += k;
    }
    if (!bad) return s;
    char *out = malloc(n + bad * 5 + 1), *o = out;
    if (!out) {
        free(s);
        return NULL;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = jci_utf8_len(p);
        if (!k) {
            memcpy(o, "\\ufffd", 6);
            o += 6;
            p++;
            continue;
        }
        memcpy(o, p, k);
        o += k;
        p += k;
    }
    *o = 0;
    free(s);
    return out;
}

char *rj_print(const cJSON *root)
{
    return valid_utf8(cJSON_Print(root));
}

char *rj_print_unformatted(const cJSON *root)
{
    return valid_utf8(cJSON_PrintUnformatted(root));
}

/* {at_low, at_high, swing} of one figure of a sensitivity row. */
static int swing_obj(cJSON *o, const char *k, double lo, double hi)
{
    cJSON *x = cJSON_AddObjectToObject(o, k);
    return x && rj_num(x, "at_low", lo) && rj_num(x, "at_high", hi) && rj_num(x, "swing", fabs(hi - lo));
}

int rj_sensitivity(cJSON *o, const jc_estimate *e)
{
    if (!e->n_sensitivity) return 1;
    cJSON *arr = cJSON_AddArrayToObject(o, "sensitivity");
    if (!arr) return 0;
    for (size_t i = 0; i < e->n_sensitivity; i++) {
        const jc_sensitivity *r = &e->sensitivity[i];
        cJSON *x = rj_push_object(arr);
        rj_field fs[] = {RJF_N("rank", (double)(i + 1)), RJF_S("key", r->key), RJF_S("label", r->label),
                         RJF_S("unit", r->unit), RJF_N("low", r->low), RJF_N("high", r->high)};
        if (!x || !rj_fields(x, fs, sizeof fs / sizeof fs[0]) || !swing_obj(x, "co2_kg", r->co2_low, r->co2_high) ||
            !swing_obj(x, "energy_facility_kwh", r->kwh_low, r->kwh_high) ||
            !swing_obj(x, "wall_hours", r->hours_low, r->hours_high))
            return 0;
    }
    return 1;
}

static int pct_obj(cJSON *o, const char *k, jc_pct p)
{
    cJSON *x = cJSON_AddObjectToObject(o, k);
    return x && rj_num(x, "p5", p.p5) && rj_num(x, "p50", p.p50) && rj_num(x, "p95", p.p95);
}

int rj_montecarlo(cJSON *o, const jc_estimate *e)
{
    if (!e->has_mc) return 1;
    cJSON *x = cJSON_AddObjectToObject(o, "montecarlo"), *arr;
    if (!x || !rj_num(x, "draws", e->mc_draws) || !rj_num(x, "seed", e->mc_seed) ||
        !rj_str(x, "generator", "xoshiro256** seeded by splitmix64 (joulecast's own)") ||
        !rj_str(x, "propagation", "the product of each input's one-at-a-time factor on the central figure "
                                  "(the sensitivity runs, linear between bound and central)") ||
        !pct_obj(x, "co2_kg", e->mc_co2_kg) || !pct_obj(x, "energy_facility_kwh", e->mc_energy_facility_kwh) ||
        !pct_obj(x, "wall_hours", e->mc_wall_hours) || !(arr = cJSON_AddArrayToObject(x, "inputs")))
        return 0;
    for (size_t i = 0; i < e->n_mc_inputs; i++) {
        const jc_mc_input *m = &e->mc_inputs[i];
        cJSON *y = rj_push_object(arr);
        if (!y || !rj_str(y, "key", m->key) || !rj_str(y, "distribution", m->distribution) ||
            !rj_str(y, "group", m->group) || !rj_str(y, "reason", m->reason))
            return 0;
    }
    return 1;
}

int rj_top_driver(cJSON *o, const jc_estimate *e)
{
    if (!e->n_sensitivity) return 1;
    const jc_sensitivity *r = &e->sensitivity[0];
    double sw = fabs(r->co2_high - r->co2_low), width = e->co2_kg.high - e->co2_kg.low;
    cJSON *x = cJSON_AddObjectToObject(o, "top_driver");
    return x && rj_str(x, "key", r->key) && rj_num(x, "co2_kg_swing", sw) &&
           rj_num(x, "share_of_range", width > 0 ? sw / width : NAN);
}

int rj_cost_water(cJSON *o, const jc_estimate *e)
{
    const jc_range none = {NAN, NAN, NAN};
    const rj_field cost[] = {
        RJF_R("total", e->has_cost ? e->cost : none), RJF_S("currency", e->has_cost ? e->cost_currency : NULL),
        RJF_S("basis", e->has_cost ? e->cost_basis : NULL), RJF_N("rate", e->has_cost ? e->cost_rate : NAN),
        RJF_S("rate_unit", e->has_cost ? e->cost_rate_unit : NULL),
        RJF_N("instances", e->has_cost ? e->cost_units : NAN), RJF_S("source", e->has_cost ? e->cost_source : NULL),
        RJF_S("date", e->has_cost ? e->cost_date : NULL), RJF_S("region", e->has_cost ? e->cost_region : NULL),
        RJF_S("absent", e->has_cost ? NULL : e->cost_absent),
    };
    const rj_field water[] = {
        RJF_R("total_l", e->has_water ? e->water_l : none), RJF_R("onsite_l", e->water_onsite_l),
        RJF_R("offsite_l", e->water_offsite_l), RJF_N("wue_l_per_kwh", e->wue_l_per_kwh),
        RJF_S("wue_source", e->wue_source), RJF_N("grid_water_l_per_kwh", e->grid_water_l_per_kwh),
        RJF_S("grid_water_source", e->grid_water_source), RJF_S("basis", e->has_water ? e->water_basis : NULL),
        RJF_S("absent", e->has_water ? NULL : e->water_absent),
    };
    cJSON *c = cJSON_AddObjectToObject(o, "cost");
    if (!c || !rj_fields(c, cost, sizeof cost / sizeof cost[0])) return 0;
    cJSON *w = cJSON_AddObjectToObject(o, "water");
    return w && rj_fields(w, water, sizeof water / sizeof water[0]);
}
