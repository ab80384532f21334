/*
 * lookup.c (hwdb) - name indexes of a loaded hardware database and the
 * public lookups: case-insensitive ids and aliases in O(1), and on a miss
 * a "did you mean" list of the closest names (edit distance or
 * substring).  Also the enum-to-name helpers, the device peak a
 * framework gets (jci_device_peak) and the filters of `hw list`.
 */
#include "hwdb/hwdb_int.h"
#include "hwdb/hwdb_fields.h"

#include <stdlib.h>
#include <string.h>

char *hw_lower(jci_arena *a, const char *s)
{
    char *c = jci_arena_strdup(a, s);
    if (!c) return NULL;
    for (char *p = c; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    return c;
}

bool hw_smap_put(jci_arena *a, jci_strmap *m, const char *key, int32_t val, int32_t *prev)
{
    if (m->cap == 0 || m->len + 1 > m->cap / 2) {
        jci_strmap nm;
        if (!jci_strmap_init(&nm, a, m->len * 2 + 16)) return false;
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) jci_strmap_put(&nm, m->keys[i], m->vals[i]);
        *m = nm;
    }
    *prev = jci_strmap_put(m, key, val);
    return true;
}

const hw_name *hw_ns_add(jci_arena *a, hw_ns *ns, const hw_name *nm, bool *oom)
{
    int32_t at = jci_strmap_get(&ns->map, nm->lower);
    if (at >= 0) return &ns->names[at];
    if (ns->n == ns->cap) {
        size_t nc = ns->cap ? ns->cap * 2 : 64;
        hw_name *nv = jci_arena_calloc(a, nc, sizeof *nv);
        if (!nv) {
            *oom = true;
            return NULL;
        }
        if (ns->n) memcpy(nv, ns->names, ns->n * sizeof *nv);
        ns->names = nv;
        ns->cap = nc;
    }
    int32_t prev;
    if (!hw_smap_put(a, &ns->map, nm->lower, (int32_t)ns->n, &prev)) {
        *oom = true;
        return NULL;
    }
    ns->names[ns->n++] = *nm;
    return NULL;
}

const hw_name *hw_ns_get(const hw_ns *ns, const char *name)
{
    char buf[512];
    size_t n = strlen(name);
    if (n >= sizeof buf) return NULL;
    for (size_t i = 0; i <= n; i++)
        buf[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
    int32_t at = jci_strmap_get(&ns->map, buf);
    return at >= 0 ? &ns->names[at] : NULL;
}

const char *hw_entity_id(const jc_hwdb *db, const hw_name *nm)
{
    const jci_hwkind *k = jci_hwdb_kind_ns(nm->kind);
    if (!k) return nm->name;
    const unsigned char *arr;
    memcpy(&arr, (const unsigned char *)db + k->db_off, sizeof arr);
    return jci_hwfield_str(jci_hwdb_id_row(k), arr + (size_t)nm->idx * hs_types()[k->ht].size);
}

const char *hw_kind_name(int kind)
{
    const jci_hwkind *k = jci_hwdb_kind_ns(kind);
    return k ? k->label : "?";
}

jc_status hw_not_found(const jc_hwdb *db, const hw_ns *ns, unsigned mask,
                       const char *what, const char *name, jc_diag *d)
{
    jci_suggest sg;
    jci_suggest_init(&sg, name, 3);
    /* one suggestion per entity (its id is the key): its closest name */
    for (size_t i = 0; i < ns->n; i++) {
        const hw_name *nm = &ns->names[i];
        if (mask && !(mask & (1u << nm->kind))) continue;
        jci_suggest_add(&sg, nm->name, hw_entity_id(db, nm));
    }
    if (!sg.n)
        return jci_diag_set(d, JC_ERR_NOTFOUND, "no %s named '%s'", what, name);
    char sug[700];
    size_t p = 0;
    sug[0] = 0;
    for (size_t i = 0; i < sg.n && p < sizeof sug; i++) {
        const char *id = sg.key[i];
        int w;
        if (strcmp(id, sg.name[i]))   /* an alias: "h100 (nvidia-h100-sxm5)" */
            w = snprintf(sug + p, sizeof sug - p, "%s%s (%s)", i ? ", " : "", sg.name[i], id);
        else
            w = snprintf(sug + p, sizeof sug - p, "%s%s", i ? ", " : "", id);
        if (w < 0) break;
        p += (size_t)w;
    }
    return jci_diag_set(d, JC_ERR_NOTFOUND, "no %s named '%s'; did you mean %s?", what, name, sug);
}

static const hw_internal *in_of(const jc_hwdb *db)
{
    return db->internal_;
}

static jc_status bad_args(const void *db, const char *name, jc_diag *d)
{
    (void)db;
    (void)name;
    return jci_diag_set(d, JC_ERR_USAGE, "hwdb lookup: NULL database or name");
}

jc_status jc_hwdb_device(const jc_hwdb *db, const char *name,
                         const jc_device **out, jc_diag *diag)
{
    *out = NULL;
    if (!db || !name) return bad_args(db, name, diag);
    const hw_name *nm = hw_ns_get(&in_of(db)->hw, name);
    if (nm && nm->kind == HW_NS_DEVICE) {
        *out = &db->devices[nm->idx];
        return JC_OK;
    }
    if (nm)
        return jci_diag_set(diag, JC_ERR_NOTFOUND, "'%s' is a host (%s), not a device", name,
                           db->hosts[nm->idx].id);
    return hw_not_found(db, &in_of(db)->hw, 1u << HW_NS_DEVICE, "device", name, diag);
}

jc_status jc_hwdb_host(const jc_hwdb *db, const char *name,
                       const jc_host **out, jc_diag *diag)
{
    *out = NULL;
    if (!db || !name) return bad_args(db, name, diag);
    const hw_name *nm = hw_ns_get(&in_of(db)->hw, name);
    if (nm && nm->kind == HW_NS_HOST) {
        *out = &db->hosts[nm->idx];
        return JC_OK;
    }
    if (nm)
        return jci_diag_set(diag, JC_ERR_NOTFOUND, "'%s' is a device (%s), not a host", name,
                           db->devices[nm->idx].id);
    return hw_not_found(db, &in_of(db)->hw, 1u << HW_NS_HOST, "host", name, diag);
}

jc_status jc_hwdb_hardware(const jc_hwdb *db, const char *name,
                           const jc_device **dev, const jc_host **host,
                           jc_diag *diag)
{
    *dev = NULL;
    *host = NULL;
    if (!db || !name) return bad_args(db, name, diag);
    const hw_name *nm = hw_ns_get(&in_of(db)->hw, name);
    if (!nm) return hw_not_found(db, &in_of(db)->hw, 0, "device or host", name, diag);
    if (nm->kind == HW_NS_DEVICE) *dev = &db->devices[nm->idx];
    else *host = &db->hosts[nm->idx];
    return JC_OK;
}

#define SIMPLE_LOOKUP(fn, type, ns_field, arr, what)                            \
    jc_status fn(const jc_hwdb *db, const char *name, const type **out,         \
                 jc_diag *diag)                                                 \
    {                                                                           \
        *out = NULL;                                                            \
        if (!db || !name) return bad_args(db, name, diag);                      \
        const hw_name *nm = hw_ns_get(&in_of(db)->ns_field, name);              \
        if (nm) {                                                               \
            *out = &db->arr[nm->idx];                                           \
            return JC_OK;                                                       \
        }                                                                       \
        return hw_not_found(db, &in_of(db)->ns_field, 0, what, name, diag);     \
    }

SIMPLE_LOOKUP(jc_hwdb_region, jc_region, regions, regions, "region")
SIMPLE_LOOKUP(jc_hwdb_provider, jc_provider, providers, providers, "provider")
SIMPLE_LOOKUP(jc_hwdb_constant, jc_constant, constants, constants, "constant")
SIMPLE_LOOKUP(jc_hwdb_dataset, jc_dataset, datasets, datasets, "intensity dataset")

jc_status jc_hwdb_ga(const jc_hwdb *db, const char *version,
                     const jc_ga_version **out, jc_diag *diag)
{
    *out = NULL;
    if (!db) return bad_args(db, version, diag);
    if (!version || !strcmp(version, "latest")) {
        if (!db->n_ga)
            return jci_diag_set(diag, JC_ERR_NOTFOUND,
                               "the database has no Green-Algorithms tables");
        *out = &db->ga[db->n_ga - 1];   /* sorted by version */
        return JC_OK;
    }
    const hw_name *nm = hw_ns_get(&in_of(db)->ga, version);
    if (nm) {
        *out = &db->ga[nm->idx];
        return JC_OK;
    }
    return hw_not_found(db, &in_of(db)->ga, 0, "Green-Algorithms version", version, diag);
}

const jc_intensity *jc_region_intensity(const jc_region *region,
                                        const char *dataset, int year)
{
    if (!region || !dataset) return NULL;
    for (size_t i = 0; i < region->n_intensity; i++) {
        const jc_intensity *it = &region->intensity[i];
        if (jci_strcasecmp(it->dataset_id, dataset)) continue;
        if (!year || it->value.year == year) return it;   /* newest first */
    }
    return NULL;
}

/* The names are the enum values of the field tables (src/hwdb/schema.c). */
const char *jc_device_kind_name(jc_device_kind k)
{
    return (unsigned)k <= JC_DEVICE_SOC ? jci_device_kind_names[k] : "?";
}

const char *jc_precision_name(jc_precision p)
{
    return (unsigned)p < JC_PREC_COUNT ? jci_precision_names[p] : "?";
}

const jc_sourced *jci_device_peak(const jc_device *d, jc_precision p, int fastest, bool *acc32)
{
    bool a = d->peak_tflops_acc32[p].present &&
             !(fastest && d->peak_tflops[p].present && d->peak_tflops[p].value > d->peak_tflops_acc32[p].value);
    if (acc32) *acc32 = a;
    return a ? &d->peak_tflops_acc32[p] : &d->peak_tflops[p];
}

const char *jc_host_kind_name(jc_host_kind k)
{
    return (unsigned)k <= JC_HOST_CLOUD_INSTANCE ? jci_host_kind_names[k] : "?";
}

const char *jc_region_type_name(jc_region_type t)
{
    return (unsigned)t <= JC_REGION_CLOUD ? jci_region_type_names[t] : "?";
}

char *jc_device_label(const jc_device *d, char *buf, size_t cap)
{
    if (!buf || !cap) return buf;
    const char *name = d->name ? d->name : d->id;
    size_t vl = d->vendor ? strlen(d->vendor) : 0;
    /* the vendor once: not when the name starts with it as a word */
    int dup = vl > 0;
    for (size_t i = 0; dup && i < vl; i++) {
        int a = (unsigned char)name[i], b = (unsigned char)d->vendor[i];
        if (a >= 'A' && a <= 'Z') a += 32;
        if (b >= 'A' && b <= 'Z') b += 32;
        dup = a == b;
    }
    dup = dup && (name[vl] == ' ' || name[vl] == 0);
    snprintf(buf, cap, "%s%s%s%s%s", vl && !dup ? d->vendor : "", vl && !dup ? " " : "", name,
             d->variant ? " " : "", d->variant ? d->variant : "");
    return buf;
}

/* ---- hw list filters ------------------------------------------------------ */

static char fold(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/* Whether hay holds needle, ASCII case folded. */
static bool has_casefold(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && fold(p[i]) == fold(needle[i])) i++;
        if (i == n) return true;
    }
    return n == 0;
}

/* "2023", "2020-2024", "2022-" or "-2019" into [*lo, *hi] (0: open);
 * nonzero when s is none of these. */
static int parse_years(const char *s, int *lo, int *hi)
{
    char *e;
    *lo = *hi = 0;
    if (*s != '-') {
        long a = strtol(s, &e, 10);
        if (e == s || a < 1900 || a > 2100) return 1;
        *lo = (int)a;
        if (!*e) { *hi = (int)a; return 0; }
        if (*e != '-') return 1;
        s = e;
    }
    s++;   /* past '-' */
    if (!*s) return *lo ? 0 : 1;
    long b = strtol(s, &e, 10);
    if (e == s || *e || b < 1900 || b > 2100) return 1;
    *hi = (int)b;
    return 0;
}

jc_status jc_hw_filter_years(const char *s, jc_hw_filter *f, jc_diag *d)
{
    if (!s || !f || parse_years(s, &f->year_min, &f->year_max))
        return jci_diag_set(d, JC_ERR_USAGE, "year expects a year (2023) or a range (2020-2024, 2022-, -2019), "
                            "not '%s'", s ? s : "(null)");
    return JC_OK;
}

int jc_hw_filter_device(const jc_hw_filter *f, const jc_device *d)
{
    if (!f) return true;
    if (f->kind && strcmp(f->kind, jc_device_kind_name(d->kind))) return false;
    if (f->vendor && (!d->vendor || jci_strcasecmp(f->vendor, d->vendor))) return false;
    if (f->form_factor && (!d->form_factor || !has_casefold(d->form_factor, f->form_factor))) return false;
    if ((f->year_min || f->year_max) && !d->release_year) return false;
    if (f->year_min && d->release_year < f->year_min) return false;
    if (f->year_max && d->release_year > f->year_max) return false;
    return true;
}

int jc_hw_filter_host(const jc_hw_filter *f, const jc_host *h)
{
    if (!f) return true;
    if (f->kind && strcmp(f->kind, "host")) return false;
    if (f->form_factor || f->year_min || f->year_max) return false;
    if (f->vendor && (!h->vendor || jci_strcasecmp(f->vendor, h->vendor))) return false;
    return true;
}

jc_status jc_hw_list_check(const jc_hwdb *db, const jc_hw_filter *f, jc_diag *d)
{
    if (!db) return jci_diag_set(d, JC_ERR_USAGE, "jc_hw_list_check: NULL database");
    if (!f) return JC_OK;
    if (f->kind && strcmp(f->kind, "host")) {
        int k;
        for (k = 0; jci_device_kind_names[k] && strcmp(jci_device_kind_names[k], f->kind); k++) {}
        if (!jci_device_kind_names[k])
            return jci_diag_set(d, JC_ERR_USAGE, "--kind must be gpu, cpu, tpu, accelerator, soc or host, not '%s'",
                                f->kind);
    }
    if (f->year_min && f->year_max && f->year_min > f->year_max)
        return jci_diag_set(d, JC_ERR_USAGE, "--year %d-%d: the first year is after the second", f->year_min,
                            f->year_max);
    if (f->kind && !strcmp(f->kind, "host") && (f->form_factor || f->year_min || f->year_max))
        return jci_diag_set(d, JC_ERR_USAGE, "--%s filters devices, not hosts: drop it or --kind",
                            f->form_factor ? "form-factor" : "year");
    if (f->vendor) {
        jci_suggest sg;
        jci_suggest_init(&sg, f->vendor, JCI_SUGGEST_MAX);
        for (size_t i = 0; i < db->n_devices; i++) {
            if (db->devices[i].vendor && !jci_strcasecmp(db->devices[i].vendor, f->vendor)) return JC_OK;
            if (db->devices[i].vendor) jci_suggest_add(&sg, db->devices[i].vendor, NULL);
        }
        for (size_t i = 0; i < db->n_hosts; i++) {
            if (db->hosts[i].vendor && !jci_strcasecmp(db->hosts[i].vendor, f->vendor)) return JC_OK;
            if (db->hosts[i].vendor) jci_suggest_add(&sg, db->hosts[i].vendor, NULL);
        }
        char list[200];
        jci_suggest_list(&sg, "'", list, sizeof list);
        return jci_diag_set(d, JC_ERR_NOTFOUND, "--vendor %s: no device or host has that vendor%s%s", f->vendor,
                            list[0] ? "; did you mean " : "", list);
    }
    return JC_OK;
}
