/*
 * hwdb_json.c - JSON views of the hardware database (`hw list --json`,
 * `hw show --json`, `region list --json`, `region show --json`); schemas
 * in docs/json-schemas.md.  Every cJSON call is checked: on any failure
 * the tree is deleted and NULL returned.  Numbers are finite (the loader
 * rejects anything else).
 */
#include "base/jc_internal.h"
#include "report/rjson.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* A builder that remembers the first failure so call sites stay flat. */
typedef struct jb {
    int bad;
} jb;

static cJSON *chk(jb *b, cJSON *x)
{
    if (!x) b->bad = 1;
    return x;
}

static void add_str(jb *b, cJSON *o, const char *k, const char *v)
{
    if (!o) return;
    if (!v) {
        if (!cJSON_AddNullToObject(o, k)) b->bad = 1;
        return;
    }
    if (!cJSON_AddStringToObject(o, k, v)) b->bad = 1;
}

static void add_opt_str(jb *b, cJSON *o, const char *k, const char *v)
{
    if (v) add_str(b, o, k, v);
}

static void add_num(jb *b, cJSON *o, const char *k, double v)
{
    if (o && !cJSON_AddNumberToObject(o, k, v)) b->bad = 1;
}

static void add_item(jb *b, cJSON *o, const char *k, cJSON *item)
{
    if (!item) {
        b->bad = 1;
        return;
    }
    if (!o || !cJSON_AddItemToObject(o, k, item)) {
        cJSON_Delete(item);
        b->bad = 1;
    }
}

static void push(jb *b, cJSON *arr, cJSON *item)
{
    if (!item) {
        b->bad = 1;
        return;
    }
    if (!arr || !cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        b->bad = 1;
    }
}

static cJSON *str_array(jb *b, const char **v, size_t n)
{
    cJSON *a = chk(b, cJSON_CreateArray());
    for (size_t i = 0; a && i < n; i++) push(b, a, cJSON_CreateString(v[i]));
    return a;
}

static cJSON *sourced(jb *b, const jc_sourced *s)
{
    if (!s->present) return chk(b, cJSON_CreateNull());
    cJSON *o = chk(b, cJSON_CreateObject());
    if (!o) return NULL;
    add_num(b, o, "value", s->value);
    if (s->has_range) {
        add_num(b, o, "low", s->low);
        add_num(b, o, "high", s->high);
    }
    if (s->year) add_num(b, o, "year", s->year);
    if (s->source) {
        cJSON *src = chk(b, cJSON_CreateObject());
        add_str(b, src, "id", s->source->id);
        add_str(b, src, "citation", s->source->citation);
        add_opt_str(b, src, "url", s->source->url);
        add_num(b, src, "year", s->source->year);
        add_opt_str(b, src, "licence", s->source->licence ? s->source->licence
                                                           : s->source->file_licence);
        add_item(b, o, "source", src);
    }
    add_opt_str(b, o, "derived", s->derived);
    add_opt_str(b, o, "measured", s->measured);
    add_opt_str(b, o, "note", s->note);
    char at[700];
    snprintf(at, sizeof at, "%s:%d:%d", s->file, s->line, s->col);
    add_str(b, o, "at", at);
    return o;
}

static cJSON *prec_obj(jb *b, const jc_sourced *arr)
{
    cJSON *o = chk(b, cJSON_CreateObject());
    for (int p = 0; o && p < JC_PREC_COUNT; p++)
        if (arr[p].present) add_item(b, o, jc_precision_name((jc_precision)p), sourced(b, &arr[p]));
    return o;
}

static char *finish(jb *b, cJSON *root)
{
    char *s = NULL;
    if (root && !b->bad) s = rj_print(root);
    cJSON_Delete(root);
    return s;
}

static cJSON *device_obj(jb *b, const jc_device *d)
{
    cJSON *o = chk(b, cJSON_CreateObject());
    if (!o) return NULL;
    add_str(b, o, "id", d->id);
    add_str(b, o, "kind", jc_device_kind_name(d->kind));
    add_item(b, o, "aliases", str_array(b, d->aliases, d->n_aliases));
    add_str(b, o, "vendor", d->vendor);
    add_str(b, o, "name", d->name);
    add_str(b, o, "variant", d->variant);
    add_str(b, o, "form_factor", d->form_factor);
    add_str(b, o, "architecture", d->architecture);
    add_str(b, o, "process_node", d->process_node);
    if (d->release_year) add_num(b, o, "release_year", d->release_year);
    else add_str(b, o, "release_year", NULL);
    add_item(b, o, "tdp_w", sourced(b, &d->tdp_w));
    add_item(b, o, "idle_w", sourced(b, &d->idle_w));
    add_item(b, o, "peak_tflops", prec_obj(b, d->peak_tflops));
    add_item(b, o, "peak_tflops_sparse", prec_obj(b, d->peak_tflops_sparse));
    add_item(b, o, "memory_gb", sourced(b, &d->memory_gb));
    add_item(b, o, "memory_bw_gbs", sourced(b, &d->memory_bw_gbs));
    cJSON *en = chk(b, cJSON_CreateObject());
    add_item(b, en, "pj_per_flop", prec_obj(b, d->pj_per_flop));
    add_item(b, en, "pj_per_byte", sourced(b, &d->pj_per_byte));
    add_item(b, o, "energy", en);
    cJSON *ut = chk(b, cJSON_CreateObject());
    add_item(b, ut, "training", sourced(b, &d->util_training));
    add_item(b, ut, "inference", sourced(b, &d->util_inference));
    add_item(b, o, "utilization", ut);
    add_item(b, o, "embodied_kgco2e", sourced(b, &d->embodied_kgco2e));
    add_str(b, o, "embodied_scope", d->embodied_scope);
    if (d->cores) add_num(b, o, "cores", d->cores);
    if (d->threads) add_num(b, o, "threads", d->threads);
    if (d->base_ghz) add_num(b, o, "base_ghz", d->base_ghz);
    if (d->boost_ghz) add_num(b, o, "boost_ghz", d->boost_ghz);
    add_item(b, o, "tdp_per_core_w", sourced(b, &d->tdp_per_core_w));
    if (d->ga.name) {
        cJSON *ga = chk(b, cJSON_CreateObject());
        add_str(b, ga, "name", d->ga.name);
        add_item(b, ga, "tdp_per_core_w", sourced(b, &d->ga.tdp_per_core_w));
        add_item(b, ga, "tdp_w", sourced(b, &d->ga.tdp_w));
        if (d->ga.cores) add_num(b, ga, "cores", d->ga.cores);
        add_item(b, o, "ga", ga);
    } else {
        add_str(b, o, "ga", NULL);
    }
    add_str(b, o, "note", d->note);
    char at[700];
    snprintf(at, sizeof at, "%s:%d:%d", d->file, d->line, d->col);
    add_str(b, o, "defined_at", at);
    return o;
}

char *jc_report_device_json(const jc_device *d)
{
    jb b = {0};
    return finish(&b, device_obj(&b, d));
}

char *jc_report_host_json(const jc_host *h)
{
    jb b = {0};
    cJSON *o = chk(&b, cJSON_CreateObject());
    if (!o) return NULL;
    add_str(&b, o, "id", h->id);
    add_str(&b, o, "kind", jc_host_kind_name(h->kind));
    add_item(&b, o, "aliases", str_array(&b, h->aliases, h->n_aliases));
    add_str(&b, o, "name", h->name);
    add_str(&b, o, "vendor", h->vendor);
    add_str(&b, o, "provider", h->provider);
    if (h->accel) {
        cJSON *a = chk(&b, cJSON_CreateObject());
        add_str(&b, a, "device", h->accel->id);
        add_num(&b, a, "count", h->n_accel);
        add_item(&b, o, "accelerators", a);
    } else {
        add_str(&b, o, "accelerators", NULL);
    }
    if (h->n_cpu) {
        cJSON *c = chk(&b, cJSON_CreateObject());
        add_str(&b, c, "device", h->cpu ? h->cpu->id : NULL);
        add_str(&b, c, "name", h->cpu_name);
        add_num(&b, c, "count", h->n_cpu);
        add_item(&b, o, "cpu", c);
    } else {
        add_str(&b, o, "cpu", NULL);
    }
    if (h->vcpus) add_num(&b, o, "vcpus", h->vcpus);
    add_item(&b, o, "memory_gb", sourced(&b, &h->memory_gb));
    add_item(&b, o, "host_power_w", sourced(&b, &h->host_power_w));
    add_item(&b, o, "host_idle_w", sourced(&b, &h->host_idle_w));
    add_item(&b, o, "max_power_w", sourced(&b, &h->max_power_w));
    add_str(&b, o, "note", h->note);
    char at[700];
    snprintf(at, sizeof at, "%s:%d:%d", h->file, h->line, h->col);
    add_str(&b, o, "defined_at", at);
    return finish(&b, o);
}

char *jc_report_hw_list_json(const jc_hwdb *db, const char *kind)
{
    jb b = {0};
    cJSON *root = chk(&b, cJSON_CreateObject());
    if (!root) return NULL;
    bool hosts = !kind || !strcmp(kind, "host");
    bool devs = !kind || strcmp(kind, "host") != 0;
    cJSON *da = chk(&b, cJSON_CreateArray());
    for (size_t i = 0; devs && da && i < db->n_devices; i++) {
        const jc_device *d = &db->devices[i];
        if (kind && strcmp(kind, jc_device_kind_name(d->kind))) continue;
        cJSON *o = chk(&b, cJSON_CreateObject());
        add_str(&b, o, "id", d->id);
        add_str(&b, o, "kind", jc_device_kind_name(d->kind));
        add_str(&b, o, "vendor", d->vendor);
        add_str(&b, o, "name", d->name);
        add_str(&b, o, "variant", d->variant);
        if (d->tdp_w.present) add_num(&b, o, "tdp_w", d->tdp_w.value);
        else add_str(&b, o, "tdp_w", NULL);
        push(&b, da, o);
    }
    add_item(&b, root, "devices", da);
    cJSON *ha = chk(&b, cJSON_CreateArray());
    for (size_t i = 0; hosts && ha && i < db->n_hosts; i++) {
        const jc_host *h = &db->hosts[i];
        cJSON *o = chk(&b, cJSON_CreateObject());
        add_str(&b, o, "id", h->id);
        add_str(&b, o, "kind", jc_host_kind_name(h->kind));
        add_str(&b, o, "name", h->name);
        add_str(&b, o, "provider", h->provider);
        add_str(&b, o, "accelerator", h->accel ? h->accel->id : NULL);
        add_num(&b, o, "accelerator_count", h->accel ? h->n_accel : 0);
        add_num(&b, o, "host_power_w", h->host_power_w.value);
        push(&b, ha, o);
    }
    add_item(&b, root, "hosts", ha);
    return finish(&b, root);
}

char *jc_report_region_list_json(const jc_hwdb *db, const char *provider, const char *type)
{
    jb b = {0};
    cJSON *root = chk(&b, cJSON_CreateObject());
    if (!root) return NULL;
    cJSON *ra = chk(&b, cJSON_CreateArray());
    for (size_t i = 0; ra && i < db->n_regions; i++) {
        const jc_region *r = &db->regions[i];
        if (provider && (!r->provider || jci_strcasecmp(provider, r->provider))) continue;
        if (type && strcmp(type, jc_region_type_name(r->type))) continue;
        cJSON *o = chk(&b, cJSON_CreateObject());
        add_str(&b, o, "code", r->code);
        add_str(&b, o, "type", jc_region_type_name(r->type));
        add_str(&b, o, "name", r->name);
        add_str(&b, o, "country", r->country);
        add_str(&b, o, "provider", r->provider);
        add_str(&b, o, "grid", r->grid);
        if (r->default_intensity) {
            add_num(&b, o, "default_gco2e_per_kwh", r->default_intensity->value.value);
            add_str(&b, o, "default_dataset", r->default_intensity->dataset_id);
            add_str(&b, o, "default_from", r->default_from->code);
        } else {
            add_str(&b, o, "default_gco2e_per_kwh", NULL);
            add_str(&b, o, "default_dataset", NULL);
            add_str(&b, o, "default_from", NULL);
        }
        add_num(&b, o, "n_intensity", (double)r->n_intensity);
        push(&b, ra, o);
    }
    add_item(&b, root, "regions", ra);
    return finish(&b, root);
}

char *jc_report_region_json(const jc_region *r)
{
    jb b = {0};
    cJSON *o = chk(&b, cJSON_CreateObject());
    if (!o) return NULL;
    add_str(&b, o, "code", r->code);
    add_str(&b, o, "type", jc_region_type_name(r->type));
    add_item(&b, o, "aliases", str_array(&b, r->aliases, r->n_aliases));
    add_str(&b, o, "name", r->name);
    add_str(&b, o, "country", r->country);
    add_str(&b, o, "provider", r->provider);
    add_str(&b, o, "grid", r->grid);
    add_item(&b, o, "pue", sourced(&b, &r->pue));
    add_item(&b, o, "market_gco2e_per_kwh", sourced(&b, &r->market_gco2e_per_kwh));
    cJSON *def = chk(&b, cJSON_CreateObject());
    if (r->default_intensity) {
        add_str(&b, def, "dataset", r->default_intensity->dataset_id);
        add_num(&b, def, "value", r->default_intensity->value.value);
        add_num(&b, def, "year", r->default_intensity->value.year);
        add_str(&b, def, "from", r->default_from->code);
    } else {
        add_str(&b, def, "dataset", NULL);
    }
    add_str(&b, def, "why", r->default_reason);
    add_item(&b, o, "default", def);
    cJSON *ia = chk(&b, cJSON_CreateArray());
    for (size_t i = 0; ia && i < r->n_intensity; i++) {
        const jc_intensity *it = &r->intensity[i];
        cJSON *x = chk(&b, cJSON_CreateObject());
        add_str(&b, x, "dataset", it->dataset_id);
        add_str(&b, x, "basis", it->basis);
        if (it->dataset) add_num(&b, x, "precedence", it->dataset->precedence);
        else add_str(&b, x, "precedence", NULL);
        add_str(&b, x, "superseded_by", it->dataset ? it->dataset->superseded_by : NULL);
        add_item(&b, x, "value", sourced(&b, &it->value));
        push(&b, ia, x);
    }
    add_item(&b, o, "intensity", ia);
    add_str(&b, o, "note", r->note);
    char at[700];
    snprintf(at, sizeof at, "%s:%d:%d", r->file, r->line, r->col);
    add_str(&b, o, "defined_at", at);
    return finish(&b, o);
}
