/*
 * hwdb_json.c (report) - JSON views of the hardware database (`hw list --json`,
 * `hw show --json`, `region list --json`, `region show --json`); schemas
 * in docs/json-schemas.md.  Every cJSON call is checked: on any failure
 * the tree is deleted and NULL returned.  Numbers are finite (the loader
 * rejects anything else).
 */
#include "base/jc_internal.h"
#include "hwdb/hwdb_fields.h"
#include "report/rjson.h"
#include "joulecast/hwdb.h"

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

/* ---- records by their field table (src/hwdb/fields_<kind>.def) ---------- */

static const void *ptr_at(const void *rec, size_t off)
{
    const void *p;
    memcpy(&p, (const unsigned char *)rec + off, sizeof p);
    return p;
}

/* Whether row f of rec holds a value (a group's required row decides
 * whether the group is there). */
static bool field_present(const jci_hwfield *f, const void *rec)
{
    const unsigned char *p = (const unsigned char *)rec + f->off;
    int i;
    double v;
    switch (f->type) {
    case HF_T_INT:
    case HF_T_ENUM:
        memcpy(&i, p, sizeof i);
        return i != 0 || f->type == HF_T_ENUM;
    case HF_T_NUM:
        memcpy(&v, p, sizeof v);
        return v != 0;
    case HF_T_SV:
        return ((const jc_sourced *)p)->present;
    case HF_T_PREC:
        for (int q = 0; q < JC_PREC_COUNT; q++)
            if (((const jc_sourced *)p)[q].present) return true;
        return false;
    default:
        return ptr_at(rec, f->off) != NULL;
    }
}

/* Row f of rec as key `name` of o: absent is null (a precision map and a
 * list are there, empty). */
static void add_field(jb *b, cJSON *o, const jci_hwfield *f, const void *rec, const char *name)
{
    const unsigned char *p = (const unsigned char *)rec + f->off;
    switch (f->type) {
    case HF_T_ID:
    case HF_T_STR:
    case HF_T_ENUM:
        add_str(b, o, name, jci_hwfield_str(f, rec));
        break;
    case HF_T_STRS: {
        size_t n;
        memcpy(&n, (const unsigned char *)rec + f->count_off, sizeof n);
        add_item(b, o, name, str_array(b, (const char **)ptr_at(rec, f->off), n));
        break;
    }
    case HF_T_INT:
    case HF_T_NUM:
        if (!field_present(f, rec)) {
            add_str(b, o, name, NULL);
        } else if (f->type == HF_T_INT) {
            int i;
            memcpy(&i, p, sizeof i);
            add_num(b, o, name, i);
        } else {
            double v;
            memcpy(&v, p, sizeof v);
            add_num(b, o, name, v);
        }
        break;
    case HF_T_SV:
        add_item(b, o, name, sourced(b, (const jc_sourced *)p));
        break;
    case HF_T_PREC:
        add_item(b, o, name, prec_obj(b, (const jc_sourced *)p));
        break;
    case HF_T_DEVREF: {
        const jc_device *d = ptr_at(rec, f->off);
        add_str(b, o, name, d ? d->id : NULL);
        break;
    }
    default:
        break;
    }
}

typedef void (*json_hook)(jb *b, cJSON *o, const void *rec, const jci_hwfield *f);

/* Every row of kind k into o, in table order: "a.b" rows nest in object
 * "a" (null when the group's required row is absent); a flat row sits
 * beside its mapping under its member's name; a LIST row is the hook's
 * (NULL: left out). */
static void fields_json(jb *b, cJSON *o, const void *rec, const jci_hwkind *k, json_hook own)
{
    for (size_t i = 0; i < k->n;) {
        const jci_hwfield *f = &k->fields[i];
        const char *dot = strchr(f->key, '.');
        if (f->type == HF_T_LIST || f->type == HF_T_OWN) {
            if (own && !(f->flags & HF_HIDE)) own(b, o, rec, f);
            i++;
            continue;
        }
        if (!dot || (f->flags & HF_FLAT)) {
            if (!(f->flags & HF_HIDE)) add_field(b, o, f, rec, dot ? f->member : f->key);
            i++;
            continue;
        }
        size_t len = (size_t)(dot - f->key) + 1, j = i;
        const jci_hwfield *req = NULL;
        for (; j < k->n && !strncmp(k->fields[j].key, f->key, len); j++)
            if (!req && (k->fields[j].flags & HF_REQ)) req = &k->fields[j];
        char top[64];
        snprintf(top, sizeof top, "%.*s", (int)(len - 1), f->key);
        if (req && !field_present(req, rec)) {
            add_str(b, o, top, NULL);
        } else {
            cJSON *g = chk(b, cJSON_CreateObject());
            for (size_t q = i; g && q < j; q++)
                if (!(k->fields[q].flags & HF_HIDE))
                    add_field(b, g, &k->fields[q], rec, k->fields[q].key + len);
            add_item(b, o, top, g);
        }
        i = j;
    }
}

/* One record's JSON view: every row of its kind (fields_json, the hook
 * for its LIST rows), then "defined_at", where it is written. */
static char *record_json(const void *rec, int kind, json_hook own)
{
    jb b = {0};
    const jci_hwkind *k = jci_hwdb_kind(kind);
    const char *file;
    int line, col;
    cJSON *o = chk(&b, cJSON_CreateObject());
    if (!o) return NULL;
    fields_json(&b, o, rec, k, own);
    if (jci_hwdb_at(k, rec, &file, &line, &col)) {
        char at[700];
        snprintf(at, sizeof at, "%s:%d:%d", file, line, col);
        add_str(&b, o, "defined_at", at);
    }
    return finish(&b, o);
}

char *jc_report_device_json(const jc_device *d)
{
    return record_json(d, HF_K_DEVICE, NULL);
}

char *jc_report_host_json(const jc_host *h)
{
    return record_json(h, HF_K_HOST, NULL);
}

char *jc_report_hw_list_json(const jc_hwdb *db, const jc_hw_filter *flt)
{
    jb b = {0};
    cJSON *root = chk(&b, cJSON_CreateObject());
    if (!root) return NULL;
    const char *kind = flt ? flt->kind : NULL;
    bool hosts = (!kind || !strcmp(kind, "host")) && !(flt && (flt->form_factor || flt->year_min || flt->year_max));
    bool devs = !kind || strcmp(kind, "host") != 0;
    cJSON *da = chk(&b, cJSON_CreateArray());
    for (size_t i = 0; devs && da && i < db->n_devices; i++) {
        const jc_device *d = &db->devices[i];
        if (!jc_hw_filter_device(flt, d)) continue;
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
        if (!jc_hw_filter_host(flt, h)) continue;
        cJSON *o = chk(&b, cJSON_CreateObject());
        add_str(&b, o, "id", h->id);
        add_str(&b, o, "kind", jc_host_kind_name(h->kind));
        add_str(&b, o, "name", h->name);
        add_str(&b, o, "provider", h->provider);
        add_str(&b, o, "accelerator", h->accel ? h->accel->id : NULL);
        add_num(&b, o, "accelerator_count", h->n_accel);
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

/* A region's `intensity` row: the chosen default and every value. */
static void region_intensity(jb *b, cJSON *o, const void *rec, const jci_hwfield *f)
{
    const jc_region *r = rec;
    cJSON *def = chk(b, cJSON_CreateObject());
    if (r->default_intensity) {
        add_str(b, def, "dataset", r->default_intensity->dataset_id);
        add_num(b, def, "value", r->default_intensity->value.value);
        add_num(b, def, "year", r->default_intensity->value.year);
        add_str(b, def, "from", r->default_from->code);
    } else {
        add_str(b, def, "dataset", NULL);
    }
    add_str(b, def, "why", r->default_reason);
    add_item(b, o, "default", def);
    cJSON *ia = chk(b, cJSON_CreateArray());
    for (size_t i = 0; ia && i < r->n_intensity; i++) {
        const jc_intensity *it = &r->intensity[i];
        cJSON *x = chk(b, cJSON_CreateObject());
        add_str(b, x, "dataset", it->dataset_id);
        add_str(b, x, "basis", it->basis);
        if (it->dataset) add_num(b, x, "precedence", it->dataset->precedence);
        else add_str(b, x, "precedence", NULL);
        add_str(b, x, "superseded_by", it->dataset ? it->dataset->superseded_by : NULL);
        add_item(b, x, "value", sourced(b, &it->value));
        push(b, ia, x);
    }
    add_item(b, o, f->key, ia);
}

char *jc_report_region_json(const jc_region *r)
{
    return record_json(r, HF_K_REGION, region_intensity);
}
