/*
 * hwdb_text.c (report) - text views of the hardware database for `hw list`,
 * `hw show`, `region list` and `region show`: every value with its unit,
 * range, year, source and where it was written.  Formatting only; the
 * order is the database's (sorted by id), so output is deterministic.
 */
#include "base/jc_internal.h"
#include "hwdb/hwdb_fields.h"
#include "base/fmt.h"
#include "joulecast/hwdb.h"

#include <string.h>

typedef struct out {
    FILE *f;
    int bad;
} out;

static void pr(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pr(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(o->f, fmt, ap) < 0) o->bad = 1;
    va_end(ap);
}

static jc_status done(out *o)
{
    if (fflush(o->f) != 0) o->bad = 1;
    return o->bad ? JC_ERR_IO : JC_OK;
}

static void str_field(out *o, const char *key, const char *v)
{
    if (v) pr(o, "  %-22s %s\n", key, v);
}

static void int_field(out *o, const char *key, int v)
{
    if (v) pr(o, "  %-22s %d\n", key, v);
}

static void list_field(out *o, const char *key, const char **v, size_t n)
{
    if (!n) return;
    pr(o, "  %-22s ", key);
    for (size_t i = 0; i < n; i++) pr(o, "%s%s", i ? ", " : "", v[i]);
    pr(o, "\n");
}

/* One sourced value: "key  value unit [low-high] (year)" and its source. */
static void sv(out *o, const char *key, const jc_sourced *s, const char *unit)
{
    if (!s->present) return;
    pr(o, "  %-22s %s%s%s", key, FMT_N(s->value), unit[0] ? " " : "", unit);
    if (s->has_range) pr(o, "  (range %s-%s)", FMT_N(s->low), FMT_N(s->high));
    if (s->year) pr(o, "  [%d]", s->year);
    if (s->derived) pr(o, "  (derived)");
    else if (s->measured) pr(o, "  (measured)");
    pr(o, "\n");
    if (s->source) {
        pr(o, "  %-22s   source %s: %s", "", s->source->id, s->source->citation);
        if (s->source->url && !strstr(s->source->citation, s->source->url))
            pr(o, " <%s>", s->source->url);
        pr(o, "\n");
    }
    if (s->derived) pr(o, "  %-22s   derived: %s\n", "", s->derived);
    if (s->measured) pr(o, "  %-22s   measured: %s\n", "", s->measured);
    if (s->note) pr(o, "  %-22s   note: %s\n", "", s->note);
    pr(o, "  %-22s   at %s:%d:%d\n", "", s->file, s->line, s->col);
}

/* ---- records by their field table (src/hwdb/fields_<kind>.def) ---------- */

static const void *ptr_at(const void *rec, size_t off)
{
    const void *p;
    memcpy(&p, (const unsigned char *)rec + off, sizeof p);
    return p;
}

/* Row f of rec, labelled by its YAML key; nothing when absent. */
static void text_field(out *o, const jci_hwfield *f, const void *rec)
{
    const unsigned char *p = (const unsigned char *)rec + f->off;
    int i;
    double v;
    switch (f->type) {
    case HF_T_ID:
    case HF_T_STR:
    case HF_T_ENUM: {
        const char *s = jci_hwfield_str(f, rec);
        if (s && (f->flags & HF_QUOTE)) pr(o, "  %-22s \"%s\"\n", f->key, s);
        else str_field(o, f->key, s);
        break;
    }
    case HF_T_STRS: {
        size_t n;
        memcpy(&n, (const unsigned char *)rec + f->count_off, sizeof n);
        list_field(o, f->key, (const char **)ptr_at(rec, f->off), n);
        break;
    }
    case HF_T_INT:
        memcpy(&i, p, sizeof i);
        int_field(o, f->key, i);
        break;
    case HF_T_NUM:
        memcpy(&v, p, sizeof v);
        if (v) pr(o, "  %-22s %s%s%s\n", f->key, FMT_N(v), f->unit[0] ? " " : "", f->unit);
        break;
    case HF_T_SV:
        if ((f->flags & HF_WANTED) && !((const jc_sourced *)p)->present)
            pr(o, "  %-22s (none published: give a power for estimates)\n", f->key);
        sv(o, f->key, (const jc_sourced *)p, f->unit);
        break;
    case HF_T_PREC:
        for (int q = 0; q < JC_PREC_COUNT; q++) {
            char k[96];
            snprintf(k, sizeof k, "%s.%s", f->key, jc_precision_name((jc_precision)q));
            sv(o, k, (const jc_sourced *)p + q,
               (f->flags & HF_TOPS) && q >= JC_PREC_INT8 ? "TOPS" : f->unit);
        }
        break;
    case HF_T_DEVREF: {
        const jc_device *d = ptr_at(rec, f->off);
        str_field(o, f->key, d ? d->id : NULL);
        break;
    }
    default:
        break;
    }
}

typedef void (*text_hook)(out *o, const void *rec, const jci_hwfield *f);

/* Every row of kind k but the title's, in table order; a LIST row is the
 * hook's (NULL: left out). */
static void fields_text(out *o, const void *rec, const jci_hwkind *k, text_hook own)
{
    for (size_t i = 0; i < k->n; i++) {
        const jci_hwfield *f = &k->fields[i];
        if (f->flags & (HF_TITLE | HF_HIDE)) continue;
        if (f->type == HF_T_LIST || f->type == HF_T_OWN) {
            if (own) own(o, rec, f);
        } else {
            text_field(o, f, rec);
        }
    }
}

/* One record's text view: the title line from its HF_TITLE rows ("id
 * (what kind)": the first row, the others in parentheses after `what`),
 * every other row (fields_text), then where the record is defined. */
static jc_status record_text(FILE *f, const void *rec, int kind, const char *what,
                             text_hook own)
{
    out o = {f, 0};
    const jci_hwkind *k = jci_hwdb_kind(kind);
    const char *file;
    int line, col, n = 0;
    for (size_t i = 0; i < k->n; i++) {
        if (!(k->fields[i].flags & HF_TITLE)) continue;
        const char *s = jci_hwfield_str(&k->fields[i], rec);
        if (!s) s = "?";
        if (n == 0) pr(&o, "%s", s);
        else pr(&o, n == 1 ? "  (%s%s" : ", %s%s", n == 1 ? what : "", s);
        n++;
    }
    pr(&o, n > 1 ? ")\n" : "\n");
    fields_text(&o, rec, k, own);
    if (jci_hwdb_at(k, rec, &file, &line, &col))
        pr(&o, "  %-22s %s:%d:%d\n", "defined at", file, line, col);
    return done(&o);
}

jc_status jc_report_device_text(const jc_device *d, FILE *f)
{
    return record_text(f, d, HF_K_DEVICE, "", NULL);
}

jc_status jc_report_host_text(const jc_host *h, FILE *f)
{
    return record_text(f, h, HF_K_HOST, "host, ", NULL);
}

jc_status jc_report_hw_list_text(const jc_hwdb *db, const jc_hw_filter *flt, FILE *f)
{
    out o = {f, 0};
    const char *kind = flt ? flt->kind : NULL;
    bool hosts = (!kind || !strcmp(kind, "host")) && !(flt && (flt->form_factor || flt->year_min || flt->year_max));
    bool devs = !kind || strcmp(kind, "host") != 0;
    size_t n = 0;
    if (devs) {
        pr(&o, "%-38s %-11s %8s  %s\n", "DEVICE", "KIND", "TDP W", "NAME");
        for (size_t i = 0; i < db->n_devices; i++) {
            const jc_device *d = &db->devices[i];
            if (!jc_hw_filter_device(flt, d)) continue;
            char tdp[32] = "-";
            if (d->tdp_w.present) fmt_num(tdp, sizeof tdp, d->tdp_w.value);
            pr(&o, "%-38s %-11s %8s  %s%s%s\n", d->id, jc_device_kind_name(d->kind), tdp,
               d->name, d->variant ? " " : "", d->variant ? d->variant : "");
            n++;
        }
    }
    if (hosts) {
        if (devs) pr(&o, "\n");
        pr(&o, "%-34s %-15s %-22s %s\n", "HOST", "KIND", "ACCELERATORS", "NAME");
        for (size_t i = 0; i < db->n_hosts; i++) {
            const jc_host *h = &db->hosts[i];
            if (!jc_hw_filter_host(flt, h)) continue;
            char acc[64] = "-";
            if (h->accel) snprintf(acc, sizeof acc, "%d x %s", h->n_accel, h->accel->id);
            else if (h->n_accel > 0) snprintf(acc, sizeof acc, "%d x (--device)", h->n_accel);
            pr(&o, "%-34s %-15s %-22s %s\n", h->id, jc_host_kind_name(h->kind), acc, h->name);
            n++;
        }
    }
    pr(&o, "(%zu entr%s)\n", n, n == 1 ? "y" : "ies");
    return done(&o);
}

static bool region_match(const jc_region *r, const char *provider, const char *type)
{
    if (provider && (!r->provider || jci_strcasecmp(provider, r->provider))) return false;
    if (type && strcmp(type, jc_region_type_name(r->type))) return false;
    return true;
}

jc_status jc_region_list_check(const jc_hwdb *db, const char *provider, const char *type, jc_diag *d)
{
    if (!db) return jci_diag_set(d, JC_ERR_USAGE, "jc_region_list_check: NULL database");
    if (type) {
        int ok = 0;
        for (int k = JC_REGION_WORLD; k <= JC_REGION_CLOUD; k++) ok |= !strcmp(type, jc_region_type_name((jc_region_type)k));
        if (!ok)
            return jci_diag_set(d, JC_ERR_USAGE, "--type must be world, aggregate, country, subnational, grid or cloud, "
                                "not '%s'", type);
    }
    if (provider) {
        const jc_provider *p;
        jc_status st = jc_hwdb_provider(db, provider, &p, d);
        if (st) return st;
    }
    if (!provider || !type) return JC_OK;
    for (size_t i = 0; i < db->n_regions; i++)
        if (region_match(&db->regions[i], provider, type)) return JC_OK;
    return jci_diag_set(d, JC_ERR_USAGE, "--provider %s and --type %s: no region is both (a provider's regions are "
                        "of type cloud): drop one of them", provider, type);
}

jc_status jc_report_region_list_text(const jc_hwdb *db, const char *provider,
                                     const char *type, FILE *f)
{
    out o = {f, 0};
    size_t n = 0;
    pr(&o, "%-30s %-11s %10s  %-24s %s\n", "CODE", "TYPE", "gCO2e/kWh", "DEFAULT DATASET",
       "NAME");
    for (size_t i = 0; i < db->n_regions; i++) {
        const jc_region *r = &db->regions[i];
        if (!region_match(r, provider, type)) continue;
        char v[32] = "-", ds[80] = "-";
        if (r->default_intensity) {
            fmt_num(v, sizeof v, r->default_intensity->value.value);
            snprintf(ds, sizeof ds, "%s%s%s", r->default_intensity->dataset_id,
                     r->default_from != r ? " via " : "",
                     r->default_from != r ? r->default_from->code : "");
        }
        pr(&o, "%-30s %-11s %10s  %-24s %s\n", r->code, jc_region_type_name(r->type), v, ds,
           r->name);
        n++;
    }
    pr(&o, "(%zu region%s)\n", n, n == 1 ? "" : "s");
    return done(&o);
}

/* A region's `intensity` row: the chosen default and every value. */
static void region_intensity(out *o, const void *rec, const jci_hwfield *f)
{
    const jc_region *r = rec;
    if (r->default_intensity) {
        const jc_intensity *it = r->default_intensity;
        pr(o, "  %-22s %s gCO2e/kWh (%s, %d)%s%s\n", "default intensity", FMT_N(it->value.value),
           it->dataset_id, it->value.year, r->default_from != r ? " from " : "",
           r->default_from != r ? r->default_from->code : "");
    } else {
        pr(o, "  %-22s none\n", "default intensity");
    }
    pr(o, "  %-22s %s\n", "why", r->default_reason);
    if (r->n_intensity) pr(o, "  intensity (gCO2e/kWh), by precedence:\n");
    for (size_t i = 0; i < r->n_intensity; i++) {
        const jc_intensity *it = &r->intensity[i];
        char k[128];
        snprintf(k, sizeof k, "%s%s", it == r->default_intensity ? "* " : "  ", it->dataset_id);
        sv(o, k, &it->value, f->unit);
        if (it->basis) pr(o, "  %-22s   basis: %s\n", "", it->basis);
        if (it->dataset) pr(o, "  %-22s   precedence: %d\n", "", it->dataset->precedence);
        if (it->dataset && it->dataset->superseded_by)
            pr(o, "  %-22s   superseded by %s: not part of an estimate's range\n", "",
               it->dataset->superseded_by);
    }
}

jc_status jc_report_region_text(const jc_region *r, FILE *f)
{
    return record_text(f, r, HF_K_REGION, "", region_intensity);
}
